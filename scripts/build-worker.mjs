// Bundles the engine's worker thread (lib/engine/worker/entry.ts) into .build/engine-worker.mjs.
// Next.js bundles routes, not worker scripts; packages stay external and load from node_modules.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
await build({
  entryPoints: [path.join(root, "lib/engine/worker/entry.ts")],
  outfile: path.join(root, ".build/engine-worker.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  alias: { "@": root },
  sourcemap: true,
  logLevel: "warning",
});
console.log("built .build/engine-worker.mjs");
