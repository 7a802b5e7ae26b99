import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { db, type Db } from "@/lib/db";
import { creditLedger, studioTasks, users, type StudioTask } from "@/lib/db/schema";
import { serverEnv } from "@/lib/env";
import { processConstant } from "@/lib/global-singleton";
import type { Credits } from "./balance-view";

/**
 * Per-user credits. Every change is a row of `credit_ledger`; a user's balance is the sum of
 * their rows. The allowance is the sum of their grants (the opening allowance, then an admin's
 * changes), what they spent is minus the sum of charges and refunds.
 */
export type { Credits };

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Runner = Db | Tx;

/** Accounts this process saw opened: the balance is polled often, and the insert below would be tried on every poll. */
const opened = () => processConstant("x3d.credits.opened-accounts", () => new Set<string>());

/** The opening allowance, once per account (a unique index makes a second one a no-op). */
export async function openAccount(runner: Runner, userId: string): Promise<void> {
  if (opened().has(userId)) return;
  await runner
    .insert(creditLedger)
    .values({ userId, kind: "grant", amount: serverEnv().X3D_DEFAULT_ALLOWANCE, note: "opening allowance" })
    .onConflictDoNothing();
  if (runner === (await db())) opened().add(userId);
}

async function sums(runner: Runner, userId: string): Promise<Credits> {
  const [row] = await runner
    .select({
      allowance: sql<string>`coalesce(sum(${creditLedger.amount}) filter (where ${creditLedger.kind} = 'grant'), 0)`,
      total: sql<string>`coalesce(sum(${creditLedger.amount}), 0)`,
    })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId));
  const allowance = Number(row?.allowance ?? 0);
  const remaining = Number(row?.total ?? 0);
  return { allowance, spent: allowance - remaining, remaining };
}

/** A user's credits; an account from before per-user credits gets its opening allowance now. */
export async function creditsOf(userId: string): Promise<Credits> {
  const database = await db();
  await openAccount(database, userId);
  return sums(database, userId);
}

/** The sentence for a task its owner cannot afford: the cost and what is left. */
export const shortMessage = (cost: number, remaining: number) =>
  `This task costs ${cost} credits and you have ${Math.max(0, remaining)} left. Ask an admin for a larger allowance.`;

export type NewChargedTask = Omit<typeof studioTasks.$inferInsert, "state" | "stateTimes" | "serviceTaskId">;

export type ChargeOutcome = { ok: true; task: StudioTask } | { ok: false; cost: number; remaining: number };

/**
 * Writes a task's row, as "checking" until the service answers, and its charge, in one
 * transaction that holds the owner's row locked: concurrent creates by one user are charged
 * one after another and cannot spend past the allowance together. `limited` false (admins)
 * records the charge without checking the remainder.
 */
export async function chargeAndRecord(task: NewChargedTask, limited: boolean): Promise<ChargeOutcome> {
  const cost = task.cost ?? 0;
  return (await db()).transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, task.userId)).for("update");
    await openAccount(tx, task.userId);
    const { remaining } = await sums(tx, task.userId);
    if (limited && cost > remaining) return { ok: false as const, cost, remaining };
    const now = new Date();
    const [row] = await tx
      .insert(studioTasks)
      .values({
        ...task,
        serviceTaskId: null,
        state: "checking",
        stateTimes: { checking: now.toISOString() },
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error("inserting the task returned no row");
    await tx.insert(creditLedger).values({ userId: task.userId, kind: "charge", amount: -cost, taskId: row.id, note: "task" });
    return { ok: true as const, task: row };
  });
}

/**
 * Undoes a task the service refused or never received: its row and its charge go together, so
 * a refused task is neither stored nor charged. Only a task still "checking" without a service
 * id qualifies; whether it was one (and is gone).
 */
export async function unrecord(taskId: string): Promise<boolean> {
  return (await db()).transaction(async (tx) => {
    const gone = await tx
      .delete(studioTasks)
      .where(and(eq(studioTasks.id, taskId), eq(studioTasks.state, "checking"), sql`${studioTasks.serviceTaskId} is null`))
      .returning({ id: studioTasks.id });
    if (gone.length) await tx.delete(creditLedger).where(and(eq(creditLedger.taskId, taskId), eq(creditLedger.kind, "charge")));
    return gone.length > 0;
  });
}

/** Gives back a failed task's charge, once (call it in the transaction that marks it failed). */
export async function refundTask(runner: Runner, taskId: string): Promise<void> {
  await runner.execute(sql`
    insert into ${creditLedger} (user_id, kind, amount, task_id, note)
    select user_id, 'refund', -amount, task_id, 'task failed' from ${creditLedger}
    where task_id = ${taskId} and kind = 'charge'
    on conflict do nothing`);
}

/** Sets a user's allowance: a grant of the difference, signed by the admin. */
export async function setAllowance(adminId: string, userId: string, allowance: number): Promise<Credits> {
  return (await db()).transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    await openAccount(tx, userId);
    const before = await sums(tx, userId);
    const change = allowance - before.allowance;
    if (change !== 0)
      await tx
        .insert(creditLedger)
        .values({ userId, kind: "grant", amount: change, actorId: adminId, note: `allowance ${before.allowance} → ${allowance}` });
    return sums(tx, userId);
  });
}
