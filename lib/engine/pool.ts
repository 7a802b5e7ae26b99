import "server-only";
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { lowerHelperThreads } from "@/lib/thread-priority";
import type { Job, StoredResult } from "./generate/job";

/** The bundled worker script (scripts/build-worker.mjs builds it from lib/engine/worker/entry.ts). */
const WORKER_SCRIPT = path.join(process.cwd(), ".build", "engine-worker.mjs");

type WorkerReply = ({ id: number; ok: true; stored: StoredResult } | { id: number; ok: false; message: string; inputError: boolean }) & {
  /** The worker's heap and external memory after the job, in bytes. */
  retainedBytes?: number;
};

/**
 * A worker holding more than this after a job is replaced by a fresh one: V8 keeps a heap
 * that grew for a multi-million-triangle mesh, and only ending the thread gives it back.
 */
export const RECYCLE_AFTER_BYTES = 256 * 1024 * 1024;

/** A job that failed inside the worker; `inputError` when the input could not be decoded. */
export class JobError extends Error {
  constructor(
    message: string,
    readonly inputError: boolean,
  ) {
    super(message);
    this.name = "JobError";
  }
}

interface Pending {
  id: number;
  job: Job;
  /** The task's folder: the worker writes the result there, so its bytes never cross to this thread. */
  outDir: string;
  resolve: (r: StoredResult) => void;
  reject: (e: Error) => void;
  signal?: AbortSignal;
}

interface Slot {
  worker: Worker;
  busy?: Pending;
}

/**
 * A fixed set of worker threads running generation jobs, so the web server stays responsive.
 * Aborting a job terminates its thread (a stuck job cannot be interrupted any other way) and
 * starts a fresh one.
 */
export class WorkerPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextId = 1;

  constructor(
    private readonly size: number,
    private readonly script = WORKER_SCRIPT,
  ) {
    if (!fs.existsSync(/*turbopackIgnore: true*/ script)) throw new Error(`engine worker missing at ${script}: run npm run build`);
  }

  /** Runs `job` and writes its result and cover into `outDir`; resolves with their file names. */
  run(job: Job, outDir: string, signal?: AbortSignal): Promise<StoredResult> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const pending: Pending = { id: this.nextId++, job, outDir, resolve, reject, signal };
      signal?.addEventListener("abort", () => this.abort(pending), { once: true });
      this.queue.push(pending);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const pending = this.queue.shift();
      if (!pending) return;
      slot.busy = pending;
      slot.worker.postMessage({ id: pending.id, job: pending.job, outDir: pending.outDir });
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(/*turbopackIgnore: true*/ this.script) };
    // Generation starts: the process's helper threads yield to the thread answering HTTP too.
    lowerHelperThreads();
    slot.worker.on("message", (reply: WorkerReply) => {
      const pending = slot.busy;
      if (!pending || pending.id !== reply.id) return;
      slot.busy = undefined;
      if (reply.ok) pending.resolve(reply.stored);
      else pending.reject(new JobError(reply.message, reply.inputError));
      if ((reply.retainedBytes ?? 0) > RECYCLE_AFTER_BYTES) this.retire(slot);
      this.dispatch();
    });
    slot.worker.on("error", (error) => this.replace(slot, error));
    slot.worker.on("exit", (code) => {
      if (this.slots.includes(slot)) this.replace(slot, new Error(`engine worker exited with code ${code}`));
    });
    slot.worker.unref();
    this.slots.push(slot);
    return slot;
  }

  /** Ends an idle worker; the next job starts a fresh one. */
  private retire(slot: Slot): void {
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate();
  }

  private replace(slot: Slot, error: Error): void {
    this.slots = this.slots.filter((s) => s !== slot);
    slot.busy?.reject(error);
    slot.busy = undefined;
    void slot.worker.terminate();
    this.dispatch();
  }

  private abort(pending: Pending): void {
    const reason = (pending.signal?.reason as Error | undefined) ?? new Error("aborted");
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      pending.reject(reason);
      return;
    }
    const slot = this.slots.find((s) => s.busy === pending);
    if (slot) this.replace(slot, reason);
  }
}
