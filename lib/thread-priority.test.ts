import fs from "node:fs";
import { once } from "node:events";
import os from "node:os";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { kernelThreadId, lowerHelperThreads } from "./thread-priority";

/**
 * What `name` returns when a worker calls it, the worker loading the module itself as the engine
 * and display workers' bundles do; the worker is ended after its answer.
 */
async function calledInWorker(name: "lowerThreadPriority" | "lowerHelperThreads"): Promise<unknown> {
  const worker = new Worker(
    `
const { parentPort } = require("node:worker_threads");
require("tsx/cjs");
const priority = require(${JSON.stringify(new URL("./thread-priority.ts", import.meta.url).pathname)});
parentPort.postMessage(priority.${name}());
`,
    { eval: true },
  );
  try {
    const [answer] = (await once(worker, "message")) as [unknown];
    return answer;
  } finally {
    await worker.terminate();
  }
}

describe.skipIf(process.platform !== "linux")("lowerThreadPriority", () => {
  it("lowers the calling worker thread's priority and leaves the main thread's alone", async () => {
    const before = os.getPriority(process.pid);
    const nice = await calledInWorker("lowerThreadPriority");
    expect(nice).toBe(Math.max(before, 10));
    expect(os.getPriority(process.pid)).toBe(before);
  });
});

// A worker that stays at the niceness it was started with and says which thread it is.
const IDLE_WORKER = `
const { parentPort } = require("node:worker_threads");
parentPort.postMessage(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
setInterval(() => {}, 60_000);
`;

describe.skipIf(process.platform !== "linux")("lowerHelperThreads", () => {
  it("lowers every other thread of the process, a worker's and V8's and libuv's, and leaves the calling thread alone", async () => {
    const self = kernelThreadId();
    const before = os.getPriority(self);
    const worker = new Worker(IDLE_WORKER, { eval: true });
    try {
      const [tid] = (await once(worker, "message")) as [string];
      expect(os.getPriority(Number(tid))).toBe(before); // started at the caller's niceness
      const lowered = lowerHelperThreads();
      expect(lowered).toBeGreaterThanOrEqual(1);
      expect(os.getPriority(Number(tid))).toBe(Math.max(before, 10));
      const others = fs
        .readdirSync("/proc/self/task")
        .map(Number)
        .filter((t) => t !== self);
      expect(others.length).toBeGreaterThan(1); // the worker and at least V8's platform threads
      for (const t of others) expect(os.getPriority(t)).toBeGreaterThanOrEqual(10);
      expect(os.getPriority(self)).toBe(before);
      // Already lowered: nothing more to do.
      expect(lowerHelperThreads()).toBe(0);
    } finally {
      await worker.terminate();
    }
  });

  it("does nothing when called from a worker (it would lower the thread answering HTTP)", async () => {
    const self = kernelThreadId();
    const before = os.getPriority(self);
    expect(await calledInWorker("lowerHelperThreads")).toBe(0);
    expect(os.getPriority(self)).toBe(before);
  });
});
