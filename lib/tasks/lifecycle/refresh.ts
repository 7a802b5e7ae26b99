import "server-only";
import { log } from "@/lib/log";
import { and, eq, gt, isNull, lte, notInArray, or, sql } from "drizzle-orm";
import { db, type Db } from "@/lib/db";
import { processConstant } from "@/lib/global-singleton";
import { refundTask } from "@/lib/credits/ledger";
import { recordServiceError } from "./service-errors";
import { studioTasks, type StudioTask, type TaskState } from "@/lib/db/schema";
import { X3dError, type X3dClient } from "@/lib/x3d/client";
import type { TaskResult } from "@/lib/x3d/schemas";
import { x3d } from "@/lib/x3d/service";
import { copyResultFiles } from "./copy-result";
import { makeDisplayCopy, type DeriveDisplay } from "./display-copy";
import { cachedTask, forgetTask, loadTask, rememberTask } from "./task-cache";
import { shutdownSignal } from "@/lib/shutdown";
import { serverEnv } from "@/lib/env";
import { runsWork } from "@/lib/roles";
import { isSettled } from "../model/settled";

/**
 * How a studio task learns its state: from the service, at most once per REFRESH_INTERVAL_MS
 * per task however many pages poll it, and never again once it has settled.
 *
 * Three layers keep the service (and the database) from being asked too often:
 * - in this process, concurrent callers share one promise per task;
 * - a poll within the interval of the last refresh (the task row from a one-second cache)
 *   costs no database work at all;
 * - across processes, `refreshedAt` is claimed with a conditional UPDATE: a refresh only runs
 *   when `refreshedAt` is at least the interval in the past. The refresh that copies a result
 *   pushes `refreshedAt` into the future (a lease), so exactly one copy runs at a time.
 * Once the result is stored, the viewer's display copy is derived (lib/tasks/lifecycle/display-copy),
 * under a lease of its own.
 *
 * A web server (X3D_ROLE=web) only records the service's answer: saving the result (the copy
 * and the display copy) is a worker's (lib/tasks/lifecycle/save-sweeps).
 */

/** Polls reach the service at most this often per task. */
export const REFRESH_INTERVAL_MS = 3_000;
/** How long the refresh copying a result keeps the others off; a crashed copier frees it then. */
export const COPY_LEASE_MS = 5 * 60_000;
/** Query codes meaning the task failed (open-api.md section 7): credits were refunded. */
export const FAILURE_CODES: readonly number[] = [50010001, 5001001];
/** The service's "task not found": after this many in a row the task settles as failed (a service that lost it, or another account's id). */
export const UNKNOWN_TASK_CODE = 10030010;
const UNKNOWN_ANSWERS_TO_FAIL = 3;

export type TaskQueries = Pick<X3dClient, "queryTask" | "querySplitTask" | "queryDepthTask" | "querySegmentationTask">;

export interface RefreshDeps {
  service: TaskQueries;
  now: () => Date;
  fetch: typeof fetch;
  /** Derives the viewer's copies of a stored mesh result (a worker thread in production). */
  deriveDisplay: DeriveDisplay;
  /**
   * Stops copies and derivations when the server is stopping (the shutdown signal in
   * production): they are left undone, not failed, and a later refresh does them.
   */
  signal?: AbortSignal;
  /**
   * Whether this process saves results: copies them from the service and derives their display
   * copies (default true). A web server (X3D_ROLE=web) does not: it records the state the
   * service answers, and a worker's sweep (lib/tasks/lifecycle/save-sweeps) saves the result.
   */
  saves?: boolean;
}

export interface RefreshOptions {
  /** Skip the service when the task was refreshed less than this long ago (callbacks pass 0). */
  minIntervalMs?: number;
}

export interface RefreshOutcome {
  task: StudioTask;
  /** Set when the service could not be asked or the result could not be copied; the next refresh retries. */
  problem?: string;
}

// Imported when first needed: the display pipeline (gltf-transform, sharp, three's loaders) stays out of the status route's startup.
const deriveInWorker: DeriveDisplay = async (input, format, outDir, signal) =>
  (await import("@/lib/display/run")).runDisplayJob(input, format, outDir, { signal });
const defaultDeps = (): RefreshDeps => ({
  service: x3d(),
  now: () => new Date(),
  fetch,
  deriveDisplay: deriveInWorker,
  signal: shutdownSignal(),
  saves: runsWork(),
});

/** Whether the service may be asked now: the last refresh is at least `minIntervalMs` old (and no copy lease holds). */
function due(task: StudioTask, now: Date, minIntervalMs: number): boolean {
  return !task.refreshedAt || task.refreshedAt.getTime() <= now.getTime() - minIntervalMs;
}

/** Refreshes one task from the service (coalesced and throttled); null when the task does not exist. */
export function refreshTask(id: string, options: RefreshOptions = {}, deps?: RefreshDeps): Promise<RefreshOutcome | null> {
  const inflight = inflightRefreshes();
  const running = inflight.get(id);
  if (running) return running;
  const started = run(id, options.minIntervalMs ?? REFRESH_INTERVAL_MS, deps ?? defaultDeps()).finally(() => inflight.delete(id));
  inflight.set(id, started);
  return started;
}

// On globalThis: route handlers are bundled as separate module graphs, and callbacks and polls
// of one task must share the same in-flight refresh.
function inflightRefreshes(): Map<string, Promise<RefreshOutcome | null>> {
  return processConstant("x3d.studio.refreshes", () => new Map<string, Promise<RefreshOutcome | null>>());
}

async function run(id: string, minIntervalMs: number, deps: RefreshDeps): Promise<RefreshOutcome | null> {
  const task = await cachedTask(id);
  if (!task) return null;
  if (isSettled(task)) return { task };
  // The service's answer is known; what is left is saving the result, a worker's job when this process does not.
  if (task.state === "success" && deps.saves === false) return { task };
  if (task.state === "success" && task.resultFile) return { task: await displayCopy(task, deps) };
  if (task.serviceTaskId === null) return { task: await settleUnconfirmed(task, deps.now()) };
  const claimedAt = deps.now();
  if (!due(task, claimedAt, minIntervalMs)) return { task };
  const claimed = await claim(id, claimedAt, minIntervalMs);
  if (!claimed) {
    forgetTask(id); // another process refreshed it: read its row next time
    return { task };
  }

  let result: TaskResult;
  try {
    result = await queryService(deps.service, claimed);
  } catch (error) {
    // A state is dated when the studio learned it: at the answer, not the question (stateTimes).
    const answeredAt = deps.now();
    if (error instanceof X3dError && FAILURE_CODES.includes(error.code)) {
      const failed = await recordState(claimed, "failed", answeredAt, error.code);
      await recordServiceError("task", error, id);
      return { task: failed };
    }
    if (error instanceof X3dError && error.code === UNKNOWN_TASK_CODE) return countUnknownAnswer(claimed, answeredAt);
    log.error({ err: error }, `[studio] refreshing task ${id}`);
    await recordServiceError("query", error, id);
    return { task: claimed, problem: error instanceof X3dError ? error.userMessage : "The service could not be reached." };
  }

  const answeredAt = deps.now();
  const updated = await recordState(claimed.unknownAnswers ? await resetUnknownAnswers(claimed) : claimed, result.state, answeredAt);
  if (updated.state !== "success" || updated.resultFile) return { task: updated };
  if (deps.saves === false) return { task: updated };
  const copied = await copyResult(updated, result, claimedAt, deps);
  if (copied.problem || !copied.task.resultFile) return copied;
  return { task: await displayCopy(copied.task, deps) };
}

/**
 * Derives the viewer's copies under a lease (refreshedAt pushed COPY_LEASE_MS ahead), so that
 * of several processes that see the stored result, one derives it; a crashed one frees it then.
 */
async function displayCopy(task: StudioTask, deps: RefreshDeps): Promise<StudioTask> {
  const database = await db();
  const now = deps.now();
  const lease = new Date(now.getTime() + COPY_LEASE_MS);
  const [leased] = await database
    .update(studioTasks)
    .set({ refreshedAt: lease })
    .where(
      and(
        eq(studioTasks.id, task.id),
        isNull(studioTasks.displayState),
        or(isNull(studioTasks.refreshedAt), lte(studioTasks.refreshedAt, now)),
      ),
    )
    .returning();
  if (!leased) return task; // another process derives it (or did): the next read shows its outcome
  const done = await makeDisplayCopy(rememberTask(leased), deps.deriveDisplay, deps.signal);
  // Done, failed or stopped by the shutdown (left to do): the lease ends either way.
  const [row] = await database
    .update(studioTasks)
    .set({ refreshedAt: deps.now() })
    .where(and(eq(studioTasks.id, task.id), eq(studioTasks.refreshedAt, lease)))
    .returning();
  return row ? rememberTask(row) : done;
}

/**
 * Frees every copy and display lease (refreshedAt in the future) at start, on the embedded
 * database only: its files are one process's, so a lease there was left by this server before a
 * crash or kill, and waiting it out would hold the task's result back for COPY_LEASE_MS. With
 * PostgreSQL another server may hold them: they run out instead. Returns how many it freed.
 */
export async function releaseLeasesAtStart(now = new Date()): Promise<number> {
  const rows = await (
    await db()
  )
    .update(studioTasks)
    .set({ refreshedAt: now })
    .where(gt(studioTasks.refreshedAt, now))
    .returning({ id: studioTasks.id });
  return rows.length;
}

/** Takes the right to ask the service now: only if nobody did within `minIntervalMs` (and no copy lease runs). */
async function claim(id: string, now: Date, minIntervalMs: number): Promise<StudioTask | null> {
  const cutoff = new Date(now.getTime() - minIntervalMs);
  const [row] = await (
    await db()
  )
    .update(studioTasks)
    .set({ refreshedAt: now })
    .where(and(eq(studioTasks.id, id), or(isNull(studioTasks.refreshedAt), lte(studioTasks.refreshedAt, cutoff))))
    .returning();
  return row ? rememberTask(row) : null;
}

/** Window of a task whose create answer was lost (X3D_CHECKING_WINDOW_SECONDS). */
export function checkingWindowMs(): number {
  return serverEnv().X3D_CHECKING_WINDOW_SECONDS * 1000;
}

/**
 * A task whose create answer was lost ("checking", no service id) learns its id from the
 * service's callback (lib/tasks/lifecycle/callback). Without one within the window it settles as failed:
 * the studio cannot ask the service about a task whose id it never got.
 */
async function settleUnconfirmed(task: StudioTask, now: Date): Promise<StudioTask> {
  const since = Date.parse(task.stateTimes.checking ?? task.createdAt.toISOString());
  if (task.state !== "checking" || now.getTime() - since < checkingWindowMs()) return task;
  return recordState(task, "failed", now);
}

/** One more "task not found" in a row; the third settles the task as failed with that code. */
async function countUnknownAnswer(task: StudioTask, at: Date): Promise<RefreshOutcome> {
  const [row] = await (
    await db()
  )
    .update(studioTasks)
    .set({ unknownAnswers: sql`${studioTasks.unknownAnswers} + 1` })
    .where(eq(studioTasks.id, task.id))
    .returning();
  const counted = row ? rememberTask(row) : task;
  if (counted.unknownAnswers >= UNKNOWN_ANSWERS_TO_FAIL) return { task: await recordState(counted, "failed", at, UNKNOWN_TASK_CODE) };
  return {
    task: counted,
    problem: `The service does not know this task (${counted.unknownAnswers} of ${UNKNOWN_ANSWERS_TO_FAIL} answers before it counts as failed).`,
  };
}

async function resetUnknownAnswers(task: StudioTask): Promise<StudioTask> {
  const [row] = await (await db()).update(studioTasks).set({ unknownAnswers: 0 }).where(eq(studioTasks.id, task.id)).returning();
  return row ? rememberTask(row) : task;
}

function queryService(service: TaskQueries, task: StudioTask): Promise<TaskResult> {
  const id = task.serviceTaskId;
  if (id === null) return Promise.reject(new Error(`task ${task.id} has no service task id yet`));
  switch (task.kind) {
    case "image-to-3d":
    case "texture": // request_type 2 is an image-to-3D task on the service
      return service.queryTask(id);
    case "split":
      return service.querySplitTask(id);
    case "depth":
      return service.queryDepthTask(id);
    case "segmentation":
      return service.querySegmentationTask(id);
  }
}

/** Moves a task to `state` unless it already ended; each state keeps the time it was first seen. */
async function recordState(task: StudioTask, state: TaskState, at: Date, errorCode?: number): Promise<StudioTask> {
  if (task.state === state) return task;
  const seen = JSON.stringify({ [state]: at.toISOString() });
  const update = (runner: Db | Parameters<Parameters<Db["transaction"]>[0]>[0]) =>
    runner
      .update(studioTasks)
      .set({
        state,
        ...(errorCode === undefined ? {} : { errorCode }),
        // Existing keys win (right side of ||): a state keeps its first-seen time.
        stateTimes: sql`${seen}::jsonb || ${studioTasks.stateTimes}`,
        updatedAt: at,
      })
      .where(and(eq(studioTasks.id, task.id), notInArray(studioTasks.state, ["success", "failed"])))
      .returning();
  const database = await db();
  // A task that fails gets its charge back in the same transaction (lib/credits). Any other
  // state is one statement, without a transaction: on PGlite that is three round trips to the
  // database thread, holding every other statement of the process meanwhile, before the task
  // page can be told.
  const [row] =
    state === "failed"
      ? await database.transaction(async (tx) => {
          const rows = await update(tx);
          if (rows.length) await refundTask(tx, task.id);
          return rows;
        })
      : await update(database);
  return row ? rememberTask(row) : ((await loadTask(task.id)) ?? task);
}

/**
 * Copies the result and cover into studio storage under a lease, so one refresh copies at a
 * time; each file is kept as soon as it is copied, and an expired link is refreshed by
 * querying the task again (lib/tasks/lifecycle/copy-result).
 */
async function copyResult(task: StudioTask, result: TaskResult, claimedAt: Date, deps: RefreshDeps): Promise<RefreshOutcome> {
  const database = await db();
  const [leased] = await database
    .update(studioTasks)
    .set({ refreshedAt: new Date(claimedAt.getTime() + COPY_LEASE_MS) })
    .where(and(eq(studioTasks.id, task.id), eq(studioTasks.refreshedAt, claimedAt), isNull(studioTasks.resultFile)))
    .returning();
  if (!leased) return { task: (await loadTask(task.id)) ?? task };
  rememberTask(leased);
  try {
    const copied = await copyResultFiles(leased, result, {
      fetch: deps.fetch,
      now: deps.now,
      requery: () => queryService(deps.service, leased),
      signal: deps.signal,
    });
    const [row] = await database.update(studioTasks).set({ refreshedAt: deps.now() }).where(eq(studioTasks.id, task.id)).returning();
    return { task: row ? rememberTask(row) : copied };
  } catch (error) {
    if (deps.signal?.aborted) log.info(`[studio] copying the result of task ${task.id} stopped by the shutdown; a later refresh copies it`);
    else {
      log.error({ err: error }, `[studio] copying the result of task ${task.id}`);
      await recordServiceError("copy", error, task.id);
    }
    // Free the lease: the next refresh asks the service again, which signs fresh links.
    const [row] = await database.update(studioTasks).set({ refreshedAt: claimedAt }).where(eq(studioTasks.id, task.id)).returning();
    return { task: row ? rememberTask(row) : leased, problem: "The result could not be saved yet; trying again." };
  }
}
