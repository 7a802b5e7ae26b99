import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { MUTATION_RUNS } from "./scripts/mutation-folders.mjs";
import base from "./vitest.config";

// The tests Stryker runs against each mutant (npm run test:mutation): the folder's own fast
// `lib/` tests (scripts/mutation-folders.mjs). The service tests need a build and run the app
// in another process, where a mutant planted in this one cannot be seen; chaos kills servers.
const name = (process.env.X3D_MUTATE ?? "validate") as keyof typeof MUTATION_RUNS;
const config = base({ mode: "test", command: "serve" });

/**
 * Test files in the order the run lists them (cheap, exact tests first), where Vitest would start
 * the slowest. Stryker runs a mutant's tests one file after another and stops at the first
 * failure, so a mutant the small tests catch never waits for the slow end-to-end file.
 */
class ListedOrder extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const listed: readonly string[] = MUTATION_RUNS[name].tests;
    const rank = (spec: TestSpecification) => {
      const i = listed.indexOf(
        path
          .relative(import.meta.dirname, spec.moduleId)
          .split(path.sep)
          .join("/"),
      );
      return i < 0 ? listed.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// Not mergeConfig: it would add these lists to the base's instead of replacing them.
export default defineConfig({
  ...config,
  // Instrumented code runs several times slower (the textured image-to-3D job took over 60 s).
  test: {
    ...config.test,
    include: MUTATION_RUNS[name].tests,
    exclude: ["**/node_modules/**"],
    testTimeout: 600_000,
    sequence: { ...config.test?.sequence, sequencer: ListedOrder },
  },
});
