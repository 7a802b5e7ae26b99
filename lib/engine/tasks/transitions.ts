import "server-only";
import { and, eq, getTableColumns, inArray, lt, sql } from "drizzle-orm";
import { db } from "@/lib/db";
import { engineClients, engineTasks, type EngineTask } from "@/lib/db/schema";
import { isTaskId } from "./store";

const unfinished = ["created", "queueing", "processing"] as const;

/** A claimed task, with how long ago it first started by the database's clock. */
export type ClaimedTask = EngineTask & { elapsedMs: number };

/** `now()` minus `ms`: times written by the database are compared with the database's clock, never a server's. */
const dbAgo = (ms: number) => sql`now() - ${`${ms} milliseconds`}::interval`;

/**
 * Moves the oldest queueing task whose client has fewer than `limit` tasks processing to
 * `processing`, owned by this instance. One claim at a time across instances (advisory lock),
 * so the per-client limit holds with several app servers too.
 */
export async function claimNext(owner: string, limit: number): Promise<ClaimedTask | undefined> {
  const database = await db();
  return database.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7302001)`);
    const result = (await tx.execute(sql`
      select t.id from engine_tasks t
      where t.state = 'queueing'
        and (select count(*) from engine_tasks p where p.client_id = t.client_id and p.state = 'processing') < ${limit}
      order by t.created_at, t.id
      limit 1`)) as unknown as { rows: { id: string }[] };
    const id = result.rows[0]?.id;
    if (!id) return undefined;
    const [task] = await tx
      .update(engineTasks)
      .set({
        state: "processing",
        owner,
        runs: sql`${engineTasks.runs} + 1`,
        startedAt: sql`coalesce(${engineTasks.startedAt}, now())`,
        heartbeatAt: sql`now()`,
      })
      .where(eq(engineTasks.id, id))
      // started_at is the database's time; another machine's clock may differ from this one's.
      .returning({
        ...getTableColumns(engineTasks),
        elapsedMs: sql<number>`(extract(epoch from now() - ${engineTasks.startedAt}) * 1000)::float8`,
      });
    return task;
  });
}

/** Records the result; false when the task was no longer this owner's (timed out, say). */
export async function succeed(taskId: string, owner: string, resultFile: string, coverFile: string): Promise<boolean> {
  const rows = await (
    await db()
  )
    .update(engineTasks)
    .set({
      state: "success",
      resultFile,
      coverFile,
      finishedAt: sql`now()`,
      owner: null,
      callbackStatus: sql`case when ${engineTasks.callbackUrl} is null then 'none' else 'pending' end`,
      callbackNextAt: sql`now()`,
    })
    .where(and(eq(engineTasks.id, taskId), eq(engineTasks.state, "processing"), eq(engineTasks.owner, owner)))
    .returning({ id: engineTasks.id });
  return rows.length > 0;
}

/**
 * Puts a task this instance was processing back in the queue (the server is stopping): the
 * next instance to claim it starts it over, keeping its start time, so the task timeout
 * still counts from its first start.
 */
export async function release(taskId: string, owner: string): Promise<boolean> {
  const rows = await (
    await db()
  )
    .update(engineTasks)
    .set({ state: "queueing", owner: null })
    .where(and(eq(engineTasks.id, taskId), eq(engineTasks.state, "processing"), eq(engineTasks.owner, owner)))
    .returning({ id: engineTasks.id });
  return rows.length > 0;
}

/**
 * Fails an unfinished task and gives its credits back, exactly once. With `owner`, only while
 * that server still processes it: a server that stalled past its lease and lost the task to
 * another (or to the queue) must not fail the run that took over.
 */
export async function failAndRefund(taskId: string, reason: string, owner?: string): Promise<boolean> {
  const database = await db();
  return database.transaction(async (tx) => {
    const [task] = await tx
      .update(engineTasks)
      .set({
        state: "failed",
        refunded: true,
        failure: reason.slice(0, 2000),
        finishedAt: sql`now()`,
        owner: null,
        callbackStatus: sql`case when ${engineTasks.callbackUrl} is null then 'none' else 'pending' end`,
        callbackNextAt: sql`now()`,
      })
      .where(
        and(
          eq(engineTasks.id, taskId),
          owner === undefined
            ? inArray(engineTasks.state, [...unfinished])
            : and(eq(engineTasks.state, "processing"), eq(engineTasks.owner, owner)),
        ),
      )
      .returning({ clientId: engineTasks.clientId, cost: engineTasks.cost });
    if (!task) return false;
    await tx
      .update(engineClients)
      .set({ balance: sql`${engineClients.balance} + ${task.cost}` })
      .where(eq(engineClients.id, task.clientId));
    return true;
  });
}

/** Keeps this instance's processing tasks alive; others reclaim them when it stops. */
export async function heartbeat(owner: string): Promise<void> {
  await (
    await db()
  )
    .update(engineTasks)
    .set({ heartbeatAt: sql`now()` })
    .where(and(eq(engineTasks.state, "processing"), eq(engineTasks.owner, owner)));
}

/**
/**
 * Puts tasks whose processing stopped (their server went away: no heartbeat for `leaseMs`)
 * back in the queue. `leaseMs` null reclaims every processing task (the embedded database
 * has one server by construction). Ages are measured by the database's clock, which every
 * server shares: a server whose clock runs ahead would otherwise take live tasks from the others.
 */
export async function requeueOrphans(leaseMs: number | null): Promise<number> {
  const processing = await (
    await db()
  )
    .update(engineTasks)
    .set({ state: "queueing", owner: null })
    .where(
      leaseMs === null
        ? eq(engineTasks.state, "processing")
        : and(eq(engineTasks.state, "processing"), lt(engineTasks.heartbeatAt, dbAgo(leaseMs))),
    )
    .returning({ id: engineTasks.id });
  return processing.length;
}

/**
 * How long a task may stay `created`: createTask commits the row and the charge, then moves
 * it to `queueing` with its next statement and answers the task_id. A row still `created`
 * after this long lost its request in between (a crash, a kill -9).
 */
const UNANSWERED_AFTER_MS = 60_000;

const UNANSWERED_REASON = "the create request ended before it answered (server stopped or crashed): the client never got this task_id";

/**
 * Fails and refunds the tasks whose create request died between charging and answering: the
 * client was charged for a task_id it never received, so it could neither poll it nor know
 * what it paid for. Returns their ids.
 */
export async function abandonUnanswered(): Promise<string[]> {
  const rows = await (
    await db()
  )
    .select({ id: engineTasks.id })
    .from(engineTasks)
    .where(and(eq(engineTasks.state, "created"), lt(engineTasks.createdAt, dbAgo(UNANSWERED_AFTER_MS))));
  const failed: string[] = [];
  for (const { id } of rows) if (await failAndRefund(id, UNANSWERED_REASON)) failed.push(id);
  return failed;
}

export async function findTask(taskId: string): Promise<EngineTask | undefined> {
  // PostgreSQL refuses text holding NUL (an HTTP 500): an id that cannot be one is unknown.
  if (!isTaskId(taskId)) return undefined;
  const [task] = await (await db()).select().from(engineTasks).where(eq(engineTasks.id, taskId));
  return task;
}
