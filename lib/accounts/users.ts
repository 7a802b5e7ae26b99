import "server-only";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { users, type User } from "@/lib/db/schema";
import { serverEnv } from "@/lib/env";
import { throttleNetwork } from "./client-address";
import { hashPassword, verifyPassword } from "./password-hash";
import { openAccount } from "@/lib/credits/ledger";
import { revokeAllSessions, revokeOtherSessions } from "./sessions";
import { clearEvents, recordEvent, secondsToWait, SIGN_IN_PER_ADDRESS, SIGN_IN_PER_ADDRESS_AND_EMAIL, signUpPerAddress } from "./throttle";

const normalizeEmail = (email: string) => email.trim().toLowerCase();

async function findUserByEmail(email: string): Promise<User | undefined> {
  const [user] = await (
    await db()
  )
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  return user;
}

export async function findUserById(id: string): Promise<User | undefined> {
  if (!id) return undefined;
  const [user] = await (await db()).select().from(users).where(eq(users.id, id));
  return user;
}

/** Creates an email/password account; null when the email is taken. */
export async function createUser(email: string, password: string, name?: string): Promise<User | null> {
  const [user] = await (
    await db()
  )
    .insert(users)
    .values({ id: crypto.randomUUID(), email: normalizeEmail(email), name: name || null, passwordHash: await hashPassword(password) })
    .onConflictDoNothing()
    .returning();
  if (user) await openAccount(await db(), user.id);
  return user ?? null;
}

/**
 * Sets a new password (the caller checked it with passwordProblem) and ends every session of the
 * user but the one `keepHandle` names (lib/accounts/sessions.ts), if any.
 */
export async function setPassword(userId: string, password: string, keepHandle: string | null = null): Promise<void> {
  await (
    await db()
  )
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, userId));
  await revokeOtherSessions(userId, keepHandle);
}

// Throttle keys (lib/accounts/throttle.ts has the policies): the client's network, and it with the e-mail.
const addressKey = (address: string) => `address:${throttleNetwork(address)}`;
const pairKey = (address: string, email: string) => `address-email:${throttleNetwork(address)} ${normalizeEmail(email)}`;
const signUpKey = (address: string) => `sign-up:${throttleNetwork(address)}`;

/** Seconds before `address` may try to sign in to `email` again. */
export async function signInWait(email: string, address: string): Promise<number> {
  const [perAddress, perPair] = await Promise.all([
    secondsToWait(addressKey(address), SIGN_IN_PER_ADDRESS),
    secondsToWait(pairKey(address, email), SIGN_IN_PER_ADDRESS_AND_EMAIL),
  ]);
  return Math.max(perAddress, perPair);
}

/** Counts a wrong password for `email` from `address` (signing in, or confirming a password change). */
export async function recordSignInFailure(email: string, address: string): Promise<void> {
  await Promise.all([
    recordEvent(addressKey(address), SIGN_IN_PER_ADDRESS),
    recordEvent(pairKey(address, email), SIGN_IN_PER_ADDRESS_AND_EMAIL),
  ]);
}

/** After a right password: the pair's count only, since an own account's success must not reset a spraying address's count. */
export const clearSignInFailures = (email: string, address: string) => clearEvents(pairKey(address, email));

export type CheckResult = { ok: true; user: User } | { ok: false; waitSeconds: number; disabled?: true };

/** Checks a sign-in from `address`, slowed down after repeated failures from it (throttle.ts). */
export async function checkCredentials(email: string, password: string, address: string): Promise<CheckResult> {
  const wait = await signInWait(email, address);
  if (wait > 0) return { ok: false, waitSeconds: wait };
  const user = await findUserByEmail(email);
  // Hash even for unknown emails so timing does not tell which emails exist.
  const valid = user?.passwordHash ? await verifyPassword(password, user.passwordHash) : (await hashPassword(password), false);
  if (!user || !valid) {
    await recordSignInFailure(email, address);
    return { ok: false, waitSeconds: await signInWait(email, address) };
  }
  await clearSignInFailures(email, address);
  // Said only to whoever knows the password.
  if (user.disabledAt) return { ok: false, waitSeconds: 0, disabled: true };
  return { ok: true, user };
}

const signUpPolicy = () => signUpPerAddress(serverEnv().SIGN_UPS_PER_ADDRESS);

/** Seconds before `address` may sign up again. */
export const signUpWait = (address: string) => secondsToWait(signUpKey(address), signUpPolicy());

/** Counts a sign-up attempt from `address` (made or refused as taken: both tell something). */
export const recordSignUp = (address: string) => recordEvent(signUpKey(address), signUpPolicy());

/** The account for a GitHub profile, created on first sign-in (linked by email when one exists). */
export async function userForGithub(githubId: string, email: string | null | undefined, name: string | null | undefined): Promise<User> {
  const database = await db();
  const [linked] = await database.select().from(users).where(eq(users.githubId, githubId));
  if (linked) return linked;
  const byEmail = email ? await findUserByEmail(email) : undefined;
  if (byEmail) {
    const [updated] = await database.update(users).set({ githubId }).where(eq(users.id, byEmail.id)).returning();
    if (!updated) throw new Error("linking the GitHub account updated no user");
    return updated;
  }
  const [created] = await database
    .insert(users)
    .values({
      id: crypto.randomUUID(),
      email: normalizeEmail(email ?? `${githubId}@users.noreply.github.com`),
      name: name ?? null,
      githubId,
    })
    .returning();
  if (!created) throw new Error("creating the GitHub user returned no row");
  await openAccount(database, created.id);
  return created;
}

/**
 * Disables or re-enables an account (the admin page). Disabling revokes every session of it at
 * once: its next request is signed out; it cannot sign in until re-enabled.
 */
export async function setDisabled(userId: string, disabled: boolean): Promise<void> {
  await (
    await db()
  )
    .update(users)
    .set({ disabledAt: disabled ? new Date() : null })
    .where(eq(users.id, userId));
  if (disabled) await revokeAllSessions(userId);
}
