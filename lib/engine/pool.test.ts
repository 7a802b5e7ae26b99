import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Job } from "./generate/job";
import { RECYCLE_AFTER_BYTES, WorkerPool } from "./pool";
import { tempDir } from "@/test/harness/temp-dir";

const dir = tempDir("pool-test");

/** A stand-in worker that answers with its thread id and says it retains `retained` bytes. */
function fakeWorker(retained: number): string {
  const file = path.join(dir, `worker-${retained}.mjs`);
  fs.writeFileSync(
    file,
    `import { parentPort, threadId } from "node:worker_threads";
     parentPort.on("message", ({ id, outDir }) => parentPort.postMessage({ id, ok: true, stored: { resultFile: String(threadId), coverFile: outDir }, retainedBytes: ${retained} }));`,
  );
  return file;
}

const job = {} as Job;
const threadOf = async (pool: WorkerPool) => Number((await pool.run(job, dir)).resultFile);

describe("WorkerPool", () => {
  it("keeps a worker that stayed small for the next job", async () => {
    const pool = new WorkerPool(1, fakeWorker(1024));
    const first = await threadOf(pool);
    expect(await threadOf(pool)).toBe(first);
    await pool.close();
  });

  it("replaces a worker that retains a large heap after its job, so the memory goes back", async () => {
    const pool = new WorkerPool(1, fakeWorker(RECYCLE_AFTER_BYTES + 1));
    const first = await threadOf(pool);
    const second = await threadOf(pool);
    expect(second).not.toBe(first);
    await pool.close();
  });
});
