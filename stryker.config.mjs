// @ts-check
// Mutation testing (npm run test:mutation, scripts/mutation.mjs): the run X3D_MUTATE names
// (scripts/mutation-folders.mjs), with its own incremental file, so a rerun after a small
// change tests only the mutants it touched and the tests that changed.
import { MUTATION_RUNS } from "./scripts/mutation-folders.mjs";

const name = process.env.X3D_MUTATE ?? "validate";
const run = MUTATION_RUNS[name];
if (!run) throw new Error(`X3D_MUTATE: unknown run "${name}" (one of ${Object.keys(MUTATION_RUNS).join(", ")})`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  mutate: [...run.mutate, "!**/*.test.ts", "!**/*.test-helpers.ts"],
  coverageAnalysis: "perTest",
  // A static mutant (a module-level value: the option spec's tables, constants) is not
  // covered per test, so Stryker would run every related test for each one, over a minute
  // apiece here. They are left out of the score; the values themselves are pinned by the
  // spec's own tests (lib/x3d/endpoints, default-faces, face-target).
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  reporters: ["progress", "json", "html"],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  concurrency: 2,
  timeoutMS: 10_000,
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  // The sandbox copies the project: leave out the build, local data and browser reports.
  ignorePatterns: ["/.next", "/.build", "/data", "/test-results", "/playwright-report", "/e2e", "/reports"],
};

export default config;
