import { mergeConfig } from "vitest/config";
import base from "./vitest.config";

// The tests Stryker runs against each mutant (npm run test:mutation): the fast `lib/` tests
// only. The service tests need a build and run the app in another process, where a mutant
// planted in this one cannot be seen; chaos kills servers.
export default mergeConfig(base({ mode: "test", command: "serve" }), {
  test: {
    include: ["lib/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
  },
});
