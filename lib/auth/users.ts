import "server-only";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { users, type User } from "@/lib/db/schema";
import { hashPassword, verifyPassword } from "./password";
import { clearFailures, recordFailure, secondsToWait } from "./throttle";

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(email: string): Promise<User | undefined> {
  const [user] = await (await db()).select().from(users).where(eq(users.email, normalizeEmail(email)));
  return user;
}

/** Creates an email/password account; null when the email is taken. */
export async function createUser(email: string, password: string, name?: string): Promise<User | null> {
  const [user] = await (await db())
    .insert(users)
    .values({ id: crypto.randomUUID(), email: normalizeEmail(email), name: name || null, passwordHash: await hashPassword(password) })
    .onConflictDoNothing()
    .returning();
  return user ?? null;
}

const throttleKey = (email: string) => `email:${normalizeEmail(email)}`;

/** Seconds before this email may try to sign in again. */
export const signInWait = (email: string) => secondsToWait(throttleKey(email));

export type CheckResult = { ok: true; user: User } | { ok: false; waitSeconds: number };

/** Checks a sign-in, slowed down after repeated failures for the same email. */
export async function checkCredentials(email: string, password: string): Promise<CheckResult> {
  const key = throttleKey(email);
  const wait = await secondsToWait(key);
  if (wait > 0) return { ok: false, waitSeconds: wait };
  const user = await findUserByEmail(email);
  // Hash even for unknown emails so timing does not tell which emails exist.
  const valid = user?.passwordHash ? await verifyPassword(password, user.passwordHash) : (await hashPassword(password), false);
  if (!user || !valid) {
    await recordFailure(key);
    return { ok: false, waitSeconds: await secondsToWait(key) };
  }
  await clearFailures(key);
  return { ok: true, user };
}

/** The account for a GitHub profile, created on first sign-in (linked by email when one exists). */
export async function userForGithub(githubId: string, email: string | null | undefined, name: string | null | undefined): Promise<User> {
  const database = await db();
  const [linked] = await database.select().from(users).where(eq(users.githubId, githubId));
  if (linked) return linked;
  const byEmail = email ? await findUserByEmail(email) : undefined;
  if (byEmail) {
    const [updated] = await database.update(users).set({ githubId }).where(eq(users.id, byEmail.id)).returning();
    return updated!;
  }
  const [created] = await database
    .insert(users)
    .values({ id: crypto.randomUUID(), email: normalizeEmail(email ?? `${githubId}@users.noreply.github.com`), name: name ?? null, githubId })
    .returning();
  return created!;
}
