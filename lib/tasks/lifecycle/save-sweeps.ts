import "server-only";
import { and, asc, eq, isNotNull, isNull, lte, ne, notInArray, or } from "drizzle-orm";
import { db } from "@/lib/db";
import { studioTasks } from "@/lib/db/schema";
import { log } from "@/lib/log";
import { refreshTask, type RefreshDeps, type RefreshOutcome } from "./refresh";

/**
 * A worker's share of the studio's tasks (X3D_ROLE=worker): web servers record what the service
 * answers and never save a result, so each worker looks, every SWEEP_INTERVAL_MS, for
 * - tasks the service finished whose result is not saved yet (copied into studio storage, its
 *   display copy derived), taken at once unless another process holds their lease;
 * - tasks still running that nobody asked the service about for STALE_AFTER_MS (no page open,
 *   a callback lost), refreshed so that they settle without a visitor.
 * Each is refreshed (lib/tasks/lifecycle/refresh) with saving on: the copy and display leases
 * there keep two workers off the same task; a worker killed mid-copy frees it when its lease ends.
 */
export const SWEEP_INTERVAL_MS = 1_000;
export const STALE_AFTER_MS = 30_000;
/** Tasks one worker saves at a time (copies wait on storage, display copies on a worker thread). */
const SAVES_AT_ONCE = 2;
/** A save that ran into a problem waits this long before this worker tries it again, doubling up to a minute. */
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 60_000;

/** Ids of tasks due for a worker now, oldest claim first, leaving out those in `busy`. */
export async function tasksToSave(now: Date, limit: number, busy: string[] = []): Promise<string[]> {
  const stale = new Date(now.getTime() - STALE_AFTER_MS);
  const free = (before: Date) => or(isNull(studioTasks.refreshedAt), lte(studioTasks.refreshedAt, before));
  const rows = await (
    await db()
  )
    .select({ id: studioTasks.id })
    .from(studioTasks)
    .where(
      and(
        // Not settled (the partial index studio_tasks_unsettled_idx holds exactly these rows).
        isNull(studioTasks.displayState),
        ne(studioTasks.state, "failed"),
        or(and(eq(studioTasks.state, "success"), free(now)), and(isNotNull(studioTasks.serviceTaskId), free(stale))),
        busy.length ? notInArray(studioTasks.id, busy) : undefined,
      ),
    )
    .orderBy(asc(studioTasks.refreshedAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Starts the sweeps; the returned function stops them and waits for the saves in flight. */
export function startSaveSweeps(deps?: RefreshDeps): () => Promise<void> {
  const running = new Map<string, Promise<unknown>>();
  const retries = new Map<string, { at: number; wait: number }>();
  let looking: Promise<void> | undefined;
  let stopped = false;
  const save = (id: string) => {
    const work = refreshTask(id, { minIntervalMs: 0 }, deps)
      .then((outcome: RefreshOutcome | null) => {
        if (outcome?.problem) {
          const wait = Math.min(RETRY_MAX_MS, 2 * (retries.get(id)?.wait ?? RETRY_FIRST_MS / 2));
          retries.set(id, { at: Date.now() + wait, wait });
          log.warn(`[studio] saving task ${id}: ${outcome.problem} (again in ${wait / 1000} s)`);
          return;
        }
        retries.delete(id);
        if (outcome?.task.resultFile && outcome.task.displayState !== null)
          log.info(`[studio] saved the result of task ${id} (display copy ${outcome.task.displayState})`);
      })
      .catch((error: unknown) => log.error({ err: error }, `[studio] saving task ${id} failed`))
      .finally(() => {
        running.delete(id);
        look();
      });
    running.set(id, work);
  };
  const look = () => {
    if (stopped || looking || running.size >= SAVES_AT_ONCE) return;
    const now = Date.now();
    // Waiting ones stay out until their time (an entry of a task deleted meanwhile is never cleared: bounded).
    if (retries.size > 10_000) retries.clear();
    const busy = [...running.keys(), ...[...retries].filter(([, r]) => r.at > now).map(([id]) => id)];
    looking = tasksToSave(new Date(now), SAVES_AT_ONCE - running.size, busy)
      .then((ids) => {
        if (!stopped) for (const id of ids) save(id);
      })
      .catch((error: unknown) => log.error({ err: error }, "[studio] looking for results to save failed"))
      .finally(() => (looking = undefined));
  };
  look();
  const timer = setInterval(look, SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await looking;
    await Promise.allSettled(running.values());
  };
}
