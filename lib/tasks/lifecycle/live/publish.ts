import "server-only";
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { db } from "@/lib/db";
import type { StudioTask } from "@/lib/db/schema";
import { serverEnv } from "@/lib/env";
import { processConstant } from "@/lib/global-singleton";
import { log } from "@/lib/log";
import { TtlCache } from "@/lib/ttl-cache";
import { isSettled } from "../../model/settled";
import { taskChangeBus, type TaskChange } from "./bus";
import { PgRelay } from "./pg-relay";

/**
 * The process's relay to the other servers of its PostgreSQL database, or null on PGlite (one
 * process: the bus is enough). Its NOTIFYs go through the app's pool; it listens once a
 * subscriber asks for changes (lib/tasks/lifecycle/live/subscribe).
 */
export function taskChangeRelay(): PgRelay | null {
  const url = serverEnv().DATABASE_URL;
  if (!url) return null;
  return processConstant(
    "x3d.studio.task-change-relay",
    () =>
      new PgRelay({
        connectionString: url,
        origin: crypto.randomUUID(),
        notify: async (channel, payload) => {
          await (await db()).execute(sql`select pg_notify(${channel}, ${payload})`);
        },
      }),
  );
}

/** Announces a task change: to this process's subscribers at once, and to the other servers' through PostgreSQL. */
export function publishTaskChange(change: TaskChange): void {
  taskChangeBus().deliver(change);
  taskChangeRelay()
    ?.publish(change)
    .catch((error: unknown) =>
      log.warn({ err: error }, `[studio] could not announce the change of task ${change.taskId} to the other servers`),
    );
}

/**
 * What a task page shows of a row that a change event should announce: its state, whether it
 * settled, the stored files and the error. Other writes (refresh claims, leases, counters)
 * change none of it and announce nothing.
 */
const visible = (task: StudioTask) =>
  [task.state, isSettled(task), task.coverFile !== null, task.resultFile !== null, task.displayState, task.errorCode].join("|");

// What was last announced (or read) of each task in this process, kept long enough to outlive any task's run.
const announced = () => processConstant("x3d.studio.announced-tasks", () => new TtlCache<string, string>(30 * 60_000, 20_000));

/**
 * Announces a row this process just wrote when what a page shows of it changed since the
 * last announcement (lib/tasks/lifecycle/task-cache's rememberTask calls it for every write).
 */
export function announceTaskRow(task: StudioTask): void {
  const now = visible(task);
  if (announced().get(task.id) === now) return;
  announced().set(task.id, now);
  publishTaskChange({ userId: task.userId, taskId: task.id, state: task.state, settled: isSettled(task) });
}

/** Notes a row read from the database: whoever wrote it announced it, so an unchanged write here will not again. */
export function noteTaskRow(task: StudioTask): void {
  announced().set(task.id, visible(task));
}

/** Announces that a task is gone (deleted, or its create refused). */
export function announceTaskDeleted(task: Pick<StudioTask, "id" | "userId">): void {
  announced().delete(task.id);
  publishTaskChange({ userId: task.userId, taskId: task.id, state: "deleted", settled: true });
}
