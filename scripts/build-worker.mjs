// Bundles the worker threads: the engine's (lib/engine/worker/entry.ts) into
// .build/engine-worker.mjs and the display copies' (lib/display/worker.ts) into
// .build/display-worker.mjs. Next.js bundles routes, not worker scripts; packages stay
// external and load from node_modules.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const workers = [
  ["lib/engine/worker/entry.ts", ".build/engine-worker.mjs"],
  ["lib/display/worker.ts", ".build/display-worker.mjs"],
];
for (const [entry, outfile] of workers) {
  await build({
    entryPoints: [path.join(root, entry)],
    outfile: path.join(root, outfile),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    alias: { "@": root },
    sourcemap: true,
    logLevel: "warning",
  });
  console.log(`built ${outfile}`);
}
