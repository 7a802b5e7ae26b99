import "server-only";
import { asc, eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { serverEnv } from "@/lib/env";
import type { SessionUser } from "./session-cache";

/**
 * Two roles: admin and artist. Admins are the accounts whose e-mails ADMIN_EMAILS names; when
 * it is unset, the first account made on this install (the oldest row of `users`) is the admin,
 * so a fresh install's operator administers it without configuring anything. The role is worked
 * out on every check, never stored: changing ADMIN_EMAILS takes effect at the next request.
 */
export type Role = "admin" | "artist";

/** The oldest account's id; it never changes once there is one, so it is remembered. */
let firstAccount: string | undefined;

async function firstAccountId(): Promise<string | undefined> {
  if (firstAccount) return firstAccount;
  const [row] = await (await db()).select({ id: users.id }).from(users).orderBy(asc(users.createdAt), asc(users.id)).limit(1);
  firstAccount = row?.id;
  return firstAccount;
}

/** The account's role, worked out now (see above). */
export async function roleOf(user: Pick<SessionUser, "id" | "email">): Promise<Role> {
  const named = serverEnv().ADMIN_EMAILS;
  if (named) return named.includes(user.email.toLowerCase()) ? "admin" : "artist";
  return (await firstAccountId()) === user.id ? "admin" : "artist";
}

/** Whether the account is an admin, worked out now. */
export const isAdmin = async (user: Pick<SessionUser, "id" | "email">) => (await roleOf(user)) === "admin";

/** Whether the account `userId` is an admin (false for no such account). */
export async function userIsAdmin(userId: string): Promise<boolean> {
  const [user] = await (await db()).select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  return user ? isAdmin(user) : false;
}
