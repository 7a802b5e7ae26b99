// The worker thread's entry point: runs one generation job per message.
import v8 from "node:v8";
import { parentPort } from "node:worker_threads";
import { InputDecodeError } from "../generate/errors";
import type { Job } from "../generate/job";
import { runJob } from "../generate/run-job";
import { storeResult } from "./store-result";
import { MeshDecodeError } from "../formats/read-mesh";

/** What this thread still holds: the pool replaces a worker that grew large (pool.ts RECYCLE_AFTER_BYTES). */
function retainedBytes(): number {
  const heap = v8.getHeapStatistics();
  return heap.total_heap_size + heap.external_memory;
}

parentPort?.on("message", async ({ id, job, outDir }: { id: number; job: Job; outDir: string }) => {
  try {
    const stored = await storeResult(outDir, await runJob(job));
    parentPort?.postMessage({ id, ok: true, stored, retainedBytes: retainedBytes() });
  } catch (error) {
    const inputError = error instanceof InputDecodeError || error instanceof MeshDecodeError;
    parentPort?.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error), inputError, retainedBytes: retainedBytes() });
  }
});
