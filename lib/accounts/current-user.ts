import "server-only";
import { auth, sessionCookieKey } from "./authjs";
import { isAdmin } from "./roles";
import { sessionCache } from "./sessions";
import type { SessionUser } from "./session-cache";

export type { SessionUser };

/**
 * The signed-in user, or null. auth() refuses a revoked session (lib/accounts/sessions.ts); the
 * answer is remembered per cookie for a few seconds (lib/accounts/session-cache.ts says how a
 * revocation reaches it).
 */
export async function currentUser(): Promise<SessionUser | null> {
  const key = await sessionCookieKey();
  if (!key) return null;
  const cache = sessionCache();
  const known = cache.get(key);
  if (known !== undefined) return known;
  const ticket = cache.ticket();
  const session = await auth();
  const id = session?.user?.id;
  const user = id ? { id, email: session.user?.email ?? "" } : null;
  cache.set(key, user, ticket);
  return user;
}

/** The signed-in user when they are an admin, else null (admin pages answer 404 then). */
export async function currentAdmin(): Promise<SessionUser | null> {
  const user = await currentUser();
  return user && (await isAdmin(user)) ? user : null;
}

/**
 * The handle of this browser's session (lib/accounts/sessions.ts), or null signed out. Not cached:
 * for the account page and its actions only.
 */
export async function currentSessionHandle(): Promise<string | null> {
  return (await auth())?.sessionHandle ?? null;
}
