import fs from "node:fs";
import { once } from "node:events";
import os from "node:os";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { lowerHelperThreads } from "./thread-priority";

// The worker loads the module itself, as the engine and display workers' bundles do.
const WORKER = `
const { parentPort } = require("node:worker_threads");
require("tsx/cjs");
const { lowerThreadPriority } = require(${JSON.stringify(new URL("./thread-priority.ts", import.meta.url).pathname)});
parentPort.postMessage(lowerThreadPriority());
`;

describe.skipIf(process.platform !== "linux")("lowerThreadPriority", () => {
  it("lowers the calling worker thread's priority and leaves the main thread's alone", async () => {
    const before = os.getPriority(process.pid);
    const worker = new Worker(WORKER, { eval: true });
    const nice = await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    await worker.terminate();
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

// A worker that calls lowerHelperThreads itself.
const HELPER_CALLER = `
const { parentPort } = require("node:worker_threads");
require("tsx/cjs");
const { lowerHelperThreads } = require(${JSON.stringify(new URL("./thread-priority.ts", import.meta.url).pathname)});
parentPort.postMessage(lowerHelperThreads());
`;

const selfTid = () => Number(fs.readlinkSync("/proc/thread-self").split("/").pop());

describe.skipIf(process.platform !== "linux")("lowerHelperThreads", () => {
  it("lowers every other thread of the process, a worker's and V8's and libuv's, and leaves the calling thread alone", async () => {
    const self = selfTid();
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
    const self = selfTid();
    const before = os.getPriority(self);
    const worker = new Worker(HELPER_CALLER, { eval: true });
    try {
      const [lowered] = (await once(worker, "message")) as [number];
      expect(lowered).toBe(0);
      expect(os.getPriority(self)).toBe(before);
    } finally {
      await worker.terminate();
    }
  });
});
