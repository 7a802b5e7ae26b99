import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { db, type Db } from "@/lib/db";
import { creditLedger, users } from "@/lib/db/schema";
import { serverEnv } from "@/lib/env";
import { processConstant } from "@/lib/global-singleton";
import type { Credits } from "./balance-view";

/**
 * Per-user credits. Every change is a row of `credit_ledger`; a user's balance is the sum of
 * their rows. The allowance is the sum of their grants (the opening allowance, then an admin's
 * changes), what they spent is minus the sum of charges and refunds.
 */
export type { Credits };

/** A transaction of the studio's database, as callers hand it to the ledger. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
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

/** What a charge was refused with: the cost and the owner's remainder. */
export type ChargeRefusal = { ok: false; cost: number; remaining: number };

/**
 * Charges `cost` to its owner for the task `record` writes, both in the caller's transaction
 * `tx`. The owner's row is locked first, so concurrent creates by one user are charged one
 * after another and cannot spend past the allowance together. Refused, before `record` runs,
 * when the remainder does not cover the cost; `limited` false (admins) skips that check.
 */
export async function chargeTask<T extends { id: string }>(
  tx: Tx,
  charge: { userId: string; cost: number; limited: boolean },
  record: () => Promise<T>,
): Promise<{ ok: true; task: T } | ChargeRefusal> {
  const { userId, cost, limited } = charge;
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  await openAccount(tx, userId);
  const { remaining } = await sums(tx, userId);
  if (limited && cost > remaining) return { ok: false, cost, remaining };
  const task = await record();
  await tx.insert(creditLedger).values({ userId, kind: "charge", amount: -cost, taskId: task.id, note: "task" });
  return { ok: true, task };
}

/** Takes back a task's charge in the caller's transaction `tx`, as the task's row is removed there (a task never made). */
export async function removeCharge(tx: Tx, taskId: string): Promise<void> {
  await tx.delete(creditLedger).where(and(eq(creditLedger.taskId, taskId), eq(creditLedger.kind, "charge")));
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
