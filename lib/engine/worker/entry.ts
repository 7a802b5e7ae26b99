// The worker thread's entry point: runs one generation job per message.
import v8 from "node:v8";
import { parentPort } from "node:worker_threads";
import { InputDecodeError } from "../generate/errors";
import type { Job } from "../generate/job";
import { runJob } from "../generate/run-job";
import { storeResult } from "./store-result";
import { MeshDecodeError } from "../formats/read-mesh";
import { collectGarbage } from "@/lib/collect-garbage";
import { lowerThreadPriority } from "@/lib/thread-priority";

// Generation takes whatever CPU is idle, but yields to the thread answering HTTP.
lowerThreadPriority();

// A job leaves hundreds of MB of dead arrays behind (a 4M-triangle mesh read, welded,
// textured and written), and an idle thread runs no collection to free them: the server's
// memory would stay high until the next job. The thread collects once after each job instead.

/** What this thread still holds: the pool replaces a worker that grew large (pool.ts RECYCLE_AFTER_BYTES). */
function retainedBytes(): number {
  const heap = v8.getHeapStatistics();
  return heap.total_heap_size + heap.external_memory;
}

parentPort?.on("message", async ({ id, job, outDir }: { id: number; job: Job; outDir: string }) => {
  let reply: Record<string, unknown>;
  try {
    reply = { id, ok: true, stored: await storeResult(outDir, await runJob(job)) };
  } catch (error) {
    const inputError = error instanceof InputDecodeError || error instanceof MeshDecodeError;
    reply = { id, ok: false, message: error instanceof Error ? error.message : String(error), inputError };
  }
  collectGarbage();
  parentPort?.postMessage({ ...reply, retainedBytes: retainedBytes() });
});
