import "server-only";
import { eq, sql } from "drizzle-orm";
import { db } from "@/lib/db";
import { signInThrottle } from "@/lib/db/schema";

/** Free attempts before waiting starts; then the wait doubles per failure up to the cap. */
const FREE_FAILURES = 3;
const MAX_WAIT_S = 300;

export function waitSeconds(failures: number): number {
  return failures < FREE_FAILURES ? 0 : Math.min(MAX_WAIT_S, 2 ** (failures - FREE_FAILURES + 1));
}

/** Seconds the key must still wait before another sign-in attempt (0 = go ahead). */
export async function secondsToWait(key: string): Promise<number> {
  const [row] = await (await db()).select().from(signInThrottle).where(eq(signInThrottle.key, key));
  if (!row) return 0;
  const until = row.lastFailureAt.getTime() + waitSeconds(row.failures) * 1000;
  return Math.max(0, Math.ceil((until - Date.now()) / 1000));
}

export async function recordFailure(key: string): Promise<void> {
  await (await db())
    .insert(signInThrottle)
    .values({ key, failures: 1 })
    .onConflictDoUpdate({ target: signInThrottle.key, set: { failures: sql`${signInThrottle.failures} + 1`, lastFailureAt: sql`now()` } });
}

export async function clearFailures(key: string): Promise<void> {
  await (await db()).delete(signInThrottle).where(eq(signInThrottle.key, key));
}
