import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// `--mode chaos` (npm run test:chaos) runs the kill -9 suite (test/chaos) alone; it is left
// out of every other run.
export default defineConfig(({ mode }) => ({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "test/empty-module.ts"),
    },
  },
  test: {
    include: mode === "chaos" ? ["test/chaos/**/*.test.ts"] : ["lib/**/*.test.ts", "test/**/*.test.ts"],
    exclude: mode === "chaos" ? configDefaults.exclude : [...configDefaults.exclude, "test/chaos/**"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: mode === "chaos" ? 600_000 : 180_000,
    pool: "forks",
  },
}));
