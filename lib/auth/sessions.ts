import "server-only";
import crypto from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import { db } from "@/lib/db";
import { sessions, users } from "@/lib/db/schema";
import { processConstant } from "@/lib/global-singleton";
import { SessionCache } from "./session-cache";

/**
 * Server-side sessions behind the JWT cookies: every sign-in makes a row whose id the cookie
 * carries (`sid`), and a cookie counts only while that row exists unrevoked (lib/auth.ts's
 * jwt callback asks on every auth(), so pages, server actions, route handlers and Auth.js's
 * own /api/auth/session all refuse a revoked one). Cookies from before sessions existed
 * carry no id and are refused: one sign-in again after the upgrade.
 */

/** Auth.js's JWT lifetime (its default, 30 days): a revoked row older than that names no live cookie. */
export const SESSION_MAX_AGE_S = 30 * 24 * 3600;

/**
 * The per-process cache of lib/session.ts's currentUser, here so that a revocation can empty
 * it. On globalThis: Next.js loads route and action bundles as separate module graphs, and a
 * sign-out in one must reach the cache the others read.
 */
export const sessionCache = (): SessionCache => processConstant("x3d.sessionCache", () => new SessionCache());

/** A new session for `userId`; its id goes into the cookie. Also drops revoked rows no cookie can name any more. */
export async function startSession(userId: string): Promise<string> {
  const id = crypto.randomBytes(32).toString("base64url");
  const database = await db();
  await database.insert(sessions).values({ id, userId });
  await database.delete(sessions).where(lt(sessions.revokedAt, new Date(Date.now() - SESSION_MAX_AGE_S * 1000)));
  return id;
}

/**
 * Whether session `id` of `userId` exists, is not revoked and its account is not disabled. Also
 * notes, to the minute, that the account was active (the admin page's "last active").
 */
export async function sessionActive(id: string, userId: string): Promise<boolean> {
  const database = await db();
  const [row] = await database
    .select({ id: sessions.id, lastSeenAt: users.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt), isNull(users.disabledAt)))
    .limit(1);
  if (!row) return false;
  if (!row.lastSeenAt || Date.now() - row.lastSeenAt.getTime() > LAST_SEEN_STEP_MS)
    await database.update(users).set({ lastSeenAt: new Date() }).where(eq(users.id, userId));
  return true;
}

/** How stale "last active" may be: one write per user a minute at most. */
const LAST_SEEN_STEP_MS = 60_000;

/** Ends one session (signing out). */
export async function revokeSession(id: string): Promise<void> {
  await (
    await db()
  )
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
  sessionCache().forgetAll();
}

/** Ends every session of a user ("sign out everywhere", a password change). */
export async function revokeAllSessions(userId: string): Promise<void> {
  await (
    await db()
  )
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  sessionCache().forgetAll();
}
