// How a worker thread's entry is bundled (scripts/build-worker.mjs for the app, and tests
// that need a bundle of their own). Next.js bundles routes, not worker scripts; packages
// stay external and load from node_modules, so `outfile` must lie inside the checkout.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The app's worker threads: entry (from the root) -> bundle (from the root).
 * @type {[string, string][]}
 */
export const WORKERS = [
  ["lib/engine/worker/entry.ts", ".build/engine-worker.mjs"],
  ["lib/display/worker.ts", ".build/display-worker.mjs"],
];

/**
 * Bundles `entry` (a path from the root) into `outfile` (absolute).
 * @param {string} entry
 * @param {string} outfile
 * @param {{ sourcemap?: boolean }} [options]
 */
export async function bundleWorker(entry, outfile, { sourcemap = false } = {}) {
  await build({
    entryPoints: [path.join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    alias: { "@": ROOT },
    sourcemap,
    logLevel: "warning",
  });
}
