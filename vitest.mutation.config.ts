import { defineConfig } from "vitest/config";
import { MUTATION_FOLDERS } from "./scripts/mutation-folders.mjs";
import base from "./vitest.config";

// The tests Stryker runs against each mutant (npm run test:mutation): the folder's own fast
// `lib/` tests (scripts/mutation-folders.mjs). The service tests need a build and run the app
// in another process, where a mutant planted in this one cannot be seen; chaos kills servers.
const name = (process.env.X3D_MUTATE ?? "validate") as keyof typeof MUTATION_FOLDERS;
const config = base({ mode: "test", command: "serve" });

// Not mergeConfig: it would add these lists to the base's instead of replacing them.
export default defineConfig({
  ...config,
  test: { ...config.test, include: MUTATION_FOLDERS[name].tests, exclude: ["**/node_modules/**"] },
});
