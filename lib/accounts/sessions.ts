import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, gt, isNull, lt, ne, sql } from "drizzle-orm";
import { db } from "@/lib/db";
import { sessions, users } from "@/lib/db/schema";
import { processConstant } from "@/lib/global-singleton";
import { MAX_USER_AGENT_LENGTH } from "./device";
import { SessionCache } from "./session-cache";

/**
 * Server-side sessions behind the JWT cookies: every sign-in makes a row whose id the cookie
 * carries (`sid`), and a cookie counts only while that row exists unrevoked (lib/accounts/authjs.ts's
 * jwt callback asks on every auth(), so pages, server actions, route handlers and Auth.js's
 * own /api/auth/session all refuse a revoked one). Cookies from before sessions existed
 * carry no id and are refused: one sign-in again after the upgrade.
 */

/** Auth.js's JWT lifetime (its default, 30 days): a revoked row older than that names no live cookie. */
export const SESSION_MAX_AGE_S = 30 * 24 * 3600;

/**
 * The per-process cache of lib/accounts/current-user.ts's currentUser, here so that a revocation can empty
 * it. On globalThis: Next.js loads route and action bundles as separate module graphs, and a
 * sign-out in one must reach the cache the others read.
 */
export const sessionCache = (): SessionCache => processConstant("x3d.sessionCache", () => new SessionCache());

/**
 * A new session for `userId`, signed in from the browser `userAgent` names; its id goes into the
 * cookie. Also drops revoked rows no cookie can name any more.
 */
export async function startSession(userId: string, userAgent?: string | null): Promise<string> {
  const id = crypto.randomBytes(32).toString("base64url");
  const database = await db();
  await database
    .insert(sessions)
    .values({ id, userId, userAgent: userAgent?.slice(0, MAX_USER_AGENT_LENGTH) || null, lastSeenAt: new Date() });
  await database.delete(sessions).where(lt(sessions.revokedAt, new Date(Date.now() - SESSION_MAX_AGE_S * 1000)));
  return id;
}

/**
 * Whether session `id` of `userId` exists, is not revoked and its account is not disabled. Also
 * notes, to the minute, when the session and the account were last used (the account page's
 * "last seen", the admin page's "last active"): a write at most once a minute for each.
 */
export async function sessionActive(id: string, userId: string): Promise<boolean> {
  const database = await db();
  const [row] = await database
    .select({ id: sessions.id, sessionSeenAt: sessions.lastSeenAt, userSeenAt: users.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt), isNull(users.disabledAt)))
    .limit(1);
  if (!row) return false;
  const now = new Date();
  if (stale(row.sessionSeenAt, now)) await database.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
  if (stale(row.userSeenAt, now)) await database.update(users).set({ lastSeenAt: now }).where(eq(users.id, userId));
  return true;
}

/**
 * Whether an Auth.js token read after its sign-in still counts (authjs.ts's jwt callback, on
 * every auth()): it must name a session (`sid`; cookies from before sessions carry none) and a
 * user (`sub`), and that session must be active (sessionActive).
 */
export async function tokenSessionActive(token: { sid?: unknown; sub?: string | null }): Promise<boolean> {
  return typeof token.sid === "string" && !!token.sub && (await sessionActive(token.sid, token.sub));
}

/** How stale "last seen" may be: one write per session (and per user) a minute at most. */
const LAST_SEEN_STEP_MS = 60_000;

const stale = (seen: Date | null, now: Date) => !seen || now.getTime() - seen.getTime() >= LAST_SEEN_STEP_MS;

/**
 * What the account page calls a session: a digest of its id, so the page (and Auth.js's
 * /api/auth/session, which carries the current one) never shows the id the cookie holds.
 * The same digest in SQL, so a revocation by handle is one statement.
 */
const handleSql = sql<string>`left(encode(sha256(convert_to(${sessions.id}, 'UTF8')), 'hex'), 32)`;

/** The handle of session `id` (see handleSql). */
export function sessionHandle(id: string): string {
  return crypto.createHash("sha256").update(id, "utf8").digest("hex").slice(0, 32);
}

export interface SessionListing {
  handle: string;
  /** The browser's User-Agent at sign-in (null on rows from before it was kept). */
  userAgent: string | null;
  signedInAt: Date;
  lastSeenAt: Date;
}

/**
 * The live sessions of `userId`, the most recently used first: not revoked, and used within a
 * cookie's lifetime (an older one's cookie has expired, whatever its row says).
 */
export async function listSessions(userId: string): Promise<SessionListing[]> {
  const seen = sql<Date>`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`.mapWith(sessions.createdAt);
  return (await db())
    .select({ handle: handleSql, userAgent: sessions.userAgent, signedInAt: sessions.createdAt, lastSeenAt: seen })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(seen, sql`now() - make_interval(secs => ${SESSION_MAX_AGE_S})`)))
    .orderBy(desc(seen), desc(sessions.createdAt));
}

/**
 * Ends the session of `userId` named by `handle` (the account page's "Sign out" on one of its
 * sessions); false when the user has no such live session, e.g. it is another account's.
 */
export async function revokeUserSession(userId: string, handle: string): Promise<boolean> {
  const ended = await (
    await db()
  )
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), eq(handleSql, handle)))
    .returning({ id: sessions.id });
  if (ended.length > 0) sessionCache().forgetAll();
  return ended.length > 0;
}

/** Ends every session of a user but the one named by `keepHandle` (a password change keeps its own browser signed in). */
export async function revokeOtherSessions(userId: string, keepHandle: string | null): Promise<void> {
  await (
    await db()
  )
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keepHandle ? ne(handleSql, keepHandle) : undefined));
  sessionCache().forgetAll();
}

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
