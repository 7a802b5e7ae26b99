// Bundles the worker threads: the engine's (lib/engine/worker/entry.ts) into
// .build/engine-worker.mjs and the display copies' (lib/display/worker.ts) into
// .build/display-worker.mjs (scripts/worker-bundle.mjs).
import path from "node:path";
import { ROOT, WORKERS, bundleWorker } from "./worker-bundle.mjs";

for (const [entry, outfile] of WORKERS) {
  await bundleWorker(entry, path.join(ROOT, outfile), { sourcemap: true });
  console.log(`built ${outfile}`);
}
