// The display worker's entry point (bundled to .build/display-worker.mjs): one job, given as
// workerData, answered with one message; the runner then terminates the thread.
import { parentPort, workerData } from "node:worker_threads";
import { type DisplayJob, handleDisplayJob } from "./run";
import { lowerThreadPriority } from "@/lib/thread-priority";

// Display copies take whatever CPU is idle, but yield to the thread answering HTTP.
lowerThreadPriority();

parentPort?.postMessage(await handleDisplayJob(workerData as DisplayJob));
