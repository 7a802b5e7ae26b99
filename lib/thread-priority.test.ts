import os from "node:os";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";

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
