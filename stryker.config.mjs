// @ts-check
// Mutation testing (npm run test:mutation, scripts/mutation.mjs): one folder per run, named
// by X3D_MUTATE, each with its own incremental file, so a rerun after a small change tests
// only the mutants it touched and the tests that changed.
import { MUTATION_FOLDERS } from "./scripts/mutation-folders.mjs";

const name = process.env.X3D_MUTATE ?? "validate";
const folder = MUTATION_FOLDERS[name];
if (!folder) throw new Error(`X3D_MUTATE: unknown folder "${name}" (one of ${Object.keys(MUTATION_FOLDERS).join(", ")})`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  mutate: [`${folder}/**/*.ts`, "!**/*.test.ts", "!**/*.test-helpers.ts"],
  coverageAnalysis: "perTest",
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
