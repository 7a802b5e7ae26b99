/**
 * Runs a display-copy derivation in its own worker thread: the web server's main thread
 * stays responsive, and the memory of a multi-million-triangle model is returned when the
 * worker exits. One worker per job, terminated after it answers or when it times out.
 */
import fs from "node:fs";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { lowerHelperThreads } from "@/lib/thread-priority";
import type { DisplayCopies, DisplayCopy, DisplayStage, SourceFormat } from "./derive";

/** The bundled worker script (scripts/build-worker.mjs builds it from lib/display/worker.ts). */
export const DISPLAY_WORKER_SCRIPT = path.join(process.cwd(), ".build", "display-worker.mjs");

/** What the worker receives as `workerData`: one stage of derive.ts. */
export type DisplayJob = { stage: "display"; input: string; format: SourceFormat; outDir: string } | { stage: "preview"; outDir: string };

/** The worker's one message. */
export type DisplayReply =
  | { ok: true; stage: "display"; result: DisplayStage }
  | { ok: true; stage: "preview"; result: DisplayCopy }
  | { ok: false; message: string };

/** Runs a job and describes its outcome as a reply (the worker's whole behaviour, testable in-thread). */
export async function handleDisplayJob(job: DisplayJob): Promise<DisplayReply> {
  try {
    const { deriveDisplay, derivePreview } = await import("./derive");
    return job.stage === "display"
      ? { ok: true, stage: "display", result: await deriveDisplay(job.input, job.format, job.outDir) }
      : { ok: true, stage: "preview", result: await derivePreview(job.outDir) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

export interface RunDisplayOptions {
  /** Milliseconds before the worker is terminated and the job fails. Default 120 s. */
  timeoutMs?: number;
  /**
   * The worker's JavaScript heap limit in MB. Default 4096: a 2M-triangle 3MF or zipped OBJ
   * peaks near 2.5 GB. Past it the worker alone fails (ERR_WORKER_OUT_OF_MEMORY); without a
   * limit V8's out-of-memory abort would take the whole server down.
   */
  maxMemoryMb?: number;
  /** The worker script; without it (e.g. under vitest, nothing bundled) the job runs in this thread. */
  script?: string;
  /** Terminates the worker and fails the job (the server is stopping). */
  signal?: AbortSignal;
}

/**
 * What a failed job leaves behind: temp files of a terminated worker (derive.ts names them
 * `<name>.<hex>.tmp`), and a display.glb written before the preview failed, which nothing
 * would ever serve.
 */
async function removeOutputs(outDir: string): Promise<void> {
  const names = await readdir(outDir).catch(() => [] as string[]);
  await Promise.all(
    names.filter((n) => /^(display|preview)\.glb(\.[0-9a-f]+\.tmp)?$/.test(n)).map((n) => rm(path.join(outDir, n), { force: true })),
  );
}

function inWorker(script: string, job: DisplayJob, timeoutMs: number, maxMemoryMb: number, signal?: AbortSignal): Promise<DisplayReply> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const worker = new Worker(/*turbopackIgnore: true*/ script, {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
    });
    // As for generation (lib/engine/pool.ts): the helper threads yield to the thread answering HTTP.
    lowerHelperThreads();
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Terminated whatever happened: one job per worker, and its memory goes with it.
      void worker.terminate().finally(outcome);
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error(`display copy timed out after ${Math.round(timeoutMs / 1000)} s`))),
      timeoutMs,
    );
    const onAbort = () => finish(() => reject(signal?.reason as Error));
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("exit", () => signal?.removeEventListener("abort", onAbort));
    worker.once("message", (reply: DisplayReply) => finish(() => resolve(reply)));
    worker.once("error", (error) => finish(() => reject(error)));
    worker.once("exit", (code) => finish(() => reject(new Error(`display worker exited with code ${code} before answering`))));
  });
}

type StageResult<S extends DisplayJob["stage"]> = Extract<DisplayReply, { ok: true; stage: S }>["result"];

/** Runs one stage in a worker (in this thread when the bundled worker is missing); a failed stage throws. */
async function runStage<S extends DisplayJob["stage"]>(
  job: Extract<DisplayJob, { stage: S }>,
  options: RunDisplayOptions,
): Promise<StageResult<S>> {
  const script = options.script ?? DISPLAY_WORKER_SCRIPT;
  let reply: DisplayReply;
  try {
    if (fs.existsSync(/*turbopackIgnore: true*/ script)) {
      // sharp's native libraries must stay loaded in the main thread: otherwise the worker's
      // exit unloads libvips under every other thread using it (sharp's worker-thread notes).
      await import("sharp");
      reply = await inWorker(script, job, options.timeoutMs ?? 120_000, options.maxMemoryMb ?? 4096, options.signal);
    } else {
      reply = await handleDisplayJob(job);
    }
  } catch (e) {
    reply = { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  if (!reply.ok || reply.stage !== job.stage) {
    await removeOutputs(job.outDir);
    throw new Error(reply.ok ? `display worker answered stage ${reply.stage} to ${job.stage}` : reply.message);
  }
  return reply.result as StageResult<S>;
}

/**
 * Derives the display copies of `input`: display.glb in one worker thread, then, for heavy
 * models, preview.glb in a second one, so that the peaks of the two stages do not add up.
 * The timeout applies to each stage.
 */
export async function runDisplayJob(
  input: string,
  format: SourceFormat,
  outDir: string,
  options: RunDisplayOptions = {},
): Promise<DisplayCopies> {
  const { display, heavy } = await runStage({ stage: "display", input, format, outDir }, options);
  return { display, preview: heavy ? await runStage({ stage: "preview", outDir }, options) : null };
}
