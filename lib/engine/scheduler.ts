import "server-only";
import path from "node:path";
import { engineConfig } from "./config";
import type { Job } from "./generate/job";
import { safeDownload } from "./net/safe-fetch";
import { JobError, WorkerPool } from "./pool";
import { contentTypeOf } from "@/lib/content-types";
import { fileStore, type LocalFolder } from "@/lib/files/store";
import { INSTANCE, taskPrefix, type InputSource } from "./tasks/store";
import { parseStored } from "./tasks/stored-job";
import {
  abandonUnanswered,
  claimNext,
  failAndRefund,
  heartbeat,
  release,
  requeueOrphans,
  succeed,
  type ClaimedTask,
} from "./tasks/transitions";
import { LIMITS } from "@/lib/x3d/options";
import { log, withLogContext } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";
import { ShuttingDown } from "@/lib/shutdown";

const TICK_MS = 1000;

/**
 * Runs queued tasks: claims them from the database within the per-client limit, fetches
 * URL inputs, runs the job on the worker pool under the task timeout, stores the result,
 * and fails with a refund on any real failure. Every instance runs one; the database is
 * the queue.
 */
export class Scheduler {
  readonly owner = INSTANCE;
  private readonly pool: WorkerPool;
  /** Tasks being processed, with what stops each. */
  private running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timer?: NodeJS.Timeout;
  /** Set once the server is stopping: nothing more is claimed. */
  private draining = false;
  private pumping = false;
  private again = false;
  private lastHeartbeat = 0;

  constructor(private readonly onFinished: () => void) {
    this.pool = new WorkerPool(engineConfig().workerThreads);
  }

  start(): void {
    this.timer = setInterval(() => void withLogContext("scheduler", () => this.tick()), TICK_MS);
    this.timer.unref();
    this.kick();
  }

  /**
   * Stops claiming, lets running tasks finish until `deadline` (epoch ms), then stops the
   * rest and puts them back in the queue: the next server to start (or another one sharing
   * the database) runs them again from the start, uncharged a second time.
   */
  async drain(deadline: number): Promise<void> {
    this.draining = true;
    clearInterval(this.timer);
    const settled = () => Promise.allSettled([...this.running.values()].map((r) => r.done));
    const late = await Promise.race([settled().then(() => false), sleepUntil(deadline).then(() => true)]);
    if (late) {
      const ids = [...this.running.keys()];
      for (const { controller } of this.running.values()) controller.abort(new ShuttingDown());
      await settled();
      log.info(`[x3d engine] put ${ids.length} running task(s) back in the queue: ${ids.join(", ")}`);
    }
    await this.pool.close();
  }

  /** Looks for work now (after a submission or a finished task). */
  kick(): void {
    void this.pump();
  }

  private async tick(): Promise<void> {
    const { leaseMs } = engineConfig();
    try {
      if (Date.now() - this.lastHeartbeat > leaseMs / 3) {
        this.lastHeartbeat = Date.now();
        await heartbeat(this.owner);
        const resumed = await requeueOrphans(leaseMs);
        if (resumed > 0) log.info(`[x3d engine] resumed ${resumed} task(s) whose server stopped`);
        logAbandoned(await abandonUnanswered());
      }
    } catch (error) {
      log.error({ err: error }, "[x3d engine] heartbeat failed");
    }
    await this.pump();
  }

  private async pump(): Promise<void> {
    if (this.draining) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        for (;;) {
          const task = await claimNext(this.owner, engineConfig().concurrencyPerClient);
          if (!task) break;
          if (this.draining) {
            // Claimed while the stop began: back to the queue before anything ran.
            await release(task.id, this.owner);
            break;
          }
          const controller = new AbortController();
          const done = withLogContext(`task:${task.id}`, () => this.process(task, controller)).finally(() => {
            this.running.delete(task.id);
            this.onFinished();
            this.kick();
          });
          this.running.set(task.id, { controller, done });
        }
      } while (this.again);
    } catch (error) {
      log.error({ err: error }, "[x3d engine] scheduling failed");
    } finally {
      this.pumping = false;
    }
  }

  /** Runs one claimed task; `controller` stops it (timeout, or the server stopping). */
  private async process(task: ClaimedTask, controller: AbortController): Promise<void> {
    const config = engineConfig();
    // On this server's clock: the database's start time would be off by the clocks' difference.
    const started = Date.now() - task.elapsedMs;
    const remaining = started + config.taskTimeoutMs - Date.now();
    const timer = setTimeout(() => controller.abort(new Error(`timed out after ${config.taskTimeoutMs / 1000} s`)), Math.max(0, remaining));
    // The task's files as a local folder: the stored folder itself on disk, a scratch copy with S3.
    const folder = await fileStore().folder(taskPrefix(task.id));
    try {
      const job = await this.buildJob(task, folder, controller.signal);
      const { resultFile, coverFile } = await this.pool.run(job, folder.path, controller.signal);
      await folder.keep(resultFile, contentTypeOf(resultFile.slice(resultFile.lastIndexOf(".") + 1)));
      await folder.keep(coverFile, contentTypeOf(coverFile.slice(coverFile.lastIndexOf(".") + 1)));
      // Simulated service latency (X3D_ENGINE_MIN_TASK_SECONDS), still under the timeout.
      await sleep(started + config.minTaskMs - Date.now(), controller.signal);
      if (controller.signal.aborted) throw controller.signal.reason;
      await succeed(task.id, this.owner, resultFile, coverFile);
      observeDuration(task.kind, "success", started);
    } catch (error) {
      if (controller.signal.reason instanceof ShuttingDown) {
        await release(task.id, this.owner).catch((e: unknown) => log.error({ err: e }, `[x3d engine] could not requeue ${task.id}`));
        return;
      }
      const reason = error instanceof JobError && error.inputError ? `input: ${error.message}` : errorText(error);
      if (!(error instanceof JobError)) log.warn(`[x3d engine] task ${task.id} failed: ${reason}`);
      const refunded = await failAndRefund(task.id, reason, this.owner).then(
        () => true,
        (e: unknown) => (log.error({ err: e }, "[x3d engine] refund failed"), false),
      );
      if (refunded) observeDuration(task.kind, "failed", started);
    } finally {
      clearTimeout(timer);
      await folder.release().catch((e: unknown) => log.warn({ err: e }, `[x3d engine] could not remove ${task.id}'s scratch folder`));
    }
  }

  /** Resolves the task's inputs to files, fetching URL inputs safely, and shapes the worker's job. */
  private async buildJob(task: ClaimedTask, folder: LocalFolder, signal: AbortSignal): Promise<Job> {
    const config = engineConfig();
    const resolve = async (role: string, source: InputSource, maxBytes: number): Promise<string> => {
      if ("file" in source) {
        const local = await folder.fetch(source.file);
        if (!local) throw new Error(`the task's input ${source.file} is not stored`);
        return local;
      }
      const dest = path.join(folder.path, `fetched-${role}`);
      await safeDownload(source.url, dest, {
        maxBytes,
        timeoutMs: Math.min(120_000, config.taskTimeoutMs),
        allowPrivate: config.allowPrivateUrls,
        allowLoopbackOrigin: config.publicOrigin,
        signal,
      });
      return dest;
    };
    switch (task.kind) {
      case "image-to-3d": {
        const { options, inputs } = parseStored(task.kind, task.options, task.inputs);
        const images = await Promise.all(
          inputs.images.map(async (v) => ({ view: v.key, path: await resolve(v.key, v.source, LIMITS.imageBytes) })),
        );
        const meshPath = inputs.mesh ? await resolve("mesh", inputs.mesh, LIMITS.meshBytes) : undefined;
        return { ...options, kind: "image-to-3d", images, meshPath };
      }
      case "depth": {
        const { options, inputs } = parseStored(task.kind, task.options, task.inputs);
        return { ...options, kind: "depth", imagePath: await resolve("image", inputs.image, LIMITS.imageBytes) };
      }
      case "split": {
        const { options, inputs } = parseStored(task.kind, task.options, task.inputs);
        return { ...options, kind: "split", meshPath: await resolve("mesh", inputs.mesh, LIMITS.meshBytes) };
      }
      case "segmentation": {
        const { options, inputs } = parseStored(task.kind, task.options, task.inputs);
        return { ...options, kind: "segmentation", meshPath: await resolve("mesh", inputs.mesh, LIMITS.meshBytes) };
      }
    }
  }
}

/** Reports tasks failed and refunded by abandonUnanswered. */
export function logAbandoned(ids: string[]): void {
  if (ids.length > 0)
    log.info(`[x3d engine] failed and refunded ${ids.length} task(s) whose create request never answered: ${ids.join(", ")}`);
}

/** A task's time from its start to its end (`started`: epoch ms), for x3d_engine_task_duration_seconds. */
function observeDuration(kind: ClaimedTask["kind"], outcome: "success" | "failed", started: number): void {
  metrics().taskDuration.observe({ kind, outcome }, Math.max(0, Date.now() - started) / 1000);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleepUntil(time: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
