import "server-only";
import { eq, sql } from "drizzle-orm";
import { db } from "@/lib/db";
import { signInThrottle } from "@/lib/db/schema";

/**
 * Slowing down guessing and bulk sign-ups: events (failed sign-ins, sign-ups) are counted per
 * key; past a policy's free ones, each next attempt waits twice as long as the last, up to a
 * cap; a key quiet for `forgetAfterSeconds` starts again from zero. Keys are made in users.ts:
 *
 * - failed sign-ins per client address and e-mail: 3 free, then 2 s, 4 s, … up to 5 minutes.
 *   A stranger's failures slow down the stranger: the owner, from any other address, is not
 *   locked out (the old per-e-mail count let anyone lock anyone out for 5 minutes).
 * - failed sign-ins per client address, whatever the e-mail: 20 free, then the same. Spraying
 *   one password over many e-mails gets 20 tries, then one per 5 minutes.
 * - sign-ups per client address: SIGN_UPS_PER_ADDRESS (5) free, then the same up to an hour.
 *
 * A success clears the address-and-e-mail count only: signing in to an own account in between
 * must not reset a spraying address's count.
 */
export interface ThrottlePolicy {
  /** Events before waiting starts. */
  free: number;
  maxWaitSeconds: number;
  /** A key without events for this long counts from zero again. */
  forgetAfterSeconds: number;
}

export const SIGN_IN_PER_ADDRESS_AND_EMAIL: ThrottlePolicy = { free: 3, maxWaitSeconds: 300, forgetAfterSeconds: 3600 };
export const SIGN_IN_PER_ADDRESS: ThrottlePolicy = { free: 20, maxWaitSeconds: 300, forgetAfterSeconds: 3600 };
export const signUpPerAddress = (free: number): ThrottlePolicy => ({ free, maxWaitSeconds: 3600, forgetAfterSeconds: 3600 });

/** Seconds to wait after the `count`-th event since the last forget. */
export function waitSeconds(policy: ThrottlePolicy, count: number): number {
  return count < policy.free ? 0 : Math.min(policy.maxWaitSeconds, 2 ** (count - policy.free + 1));
}

export interface ThrottleRow {
  count: number;
  lastAt: Date;
}

/** Seconds a key with `row` must still wait at `now` (0 = go ahead). */
export function secondsLeft(policy: ThrottlePolicy, row: ThrottleRow | undefined, now: number): number {
  if (!row || now - row.lastAt.getTime() >= policy.forgetAfterSeconds * 1000) return 0;
  const until = row.lastAt.getTime() + waitSeconds(policy, row.count) * 1000;
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** The count after one more event at `now` (what recordEvent's upsert does in SQL). */
export function countAfterEvent(policy: ThrottlePolicy, row: ThrottleRow | undefined, now: number): number {
  return row && now - row.lastAt.getTime() < policy.forgetAfterSeconds * 1000 ? row.count + 1 : 1;
}

/** Seconds the key must still wait before another attempt (0 = go ahead). */
export async function secondsToWait(key: string, policy: ThrottlePolicy): Promise<number> {
  const [row] = await (await db()).select().from(signInThrottle).where(eq(signInThrottle.key, key));
  return secondsLeft(policy, row && { count: row.failures, lastAt: row.lastFailureAt }, Date.now());
}

export async function recordEvent(key: string, policy: ThrottlePolicy): Promise<void> {
  const forget = sql`now() - make_interval(secs => ${policy.forgetAfterSeconds})`;
  await (
    await db()
  )
    .insert(signInThrottle)
    .values({ key, failures: 1 })
    .onConflictDoUpdate({
      target: signInThrottle.key,
      set: {
        failures: sql`case when ${signInThrottle.lastFailureAt} > ${forget} then ${signInThrottle.failures} + 1 else 1 end`,
        lastFailureAt: sql`now()`,
      },
    });
}

export async function clearEvents(key: string): Promise<void> {
  await (await db()).delete(signInThrottle).where(eq(signInThrottle.key, key));
}
