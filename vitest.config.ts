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
    include: mode === "chaos" ? ["test/chaos/**/*.test.ts"] : ["lib/**/*.test.ts", "components/**/*.test.ts", "test/**/*.test.ts"],
    exclude: mode === "chaos" ? configDefaults.exclude : [...configDefaults.exclude, "test/chaos/**"],
    environment: "node",
    // A PGlite cluster the test files' fresh databases copy (test/setup/pglite-template.ts),
    // then the run's own temporary folder, whose leftovers fail the run (test/setup/temp-root.ts).
    globalSetup: ["test/setup/pglite-template.ts", "test/setup/temp-root.ts"],
    testTimeout: 60_000,
    hookTimeout: mode === "chaos" ? 600_000 : 180_000,
    pool: "forks",
    // Two files at a time, whatever the machine reports: on two cores Vitest's default
    // (cores − 1) is one, and the service and chaos files spend most of their time waiting
    // on a server (boots, task minimums, back-offs), so two keep both cores busy. Kept at two,
    // not more: timing checks (throttle windows, leases) fail when servers starve for CPU.
    // `--maxWorkers` overrides it.
    maxWorkers: 2,
  },
}));
