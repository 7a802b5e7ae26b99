import "server-only";
import { auth, sessionCookieKey } from "./authjs";
import { isAdmin } from "./roles";
import { sessionCache } from "./sessions";
import type { SessionUser } from "./session-cache";

export type { SessionUser };

/**
 * The signed-in user, or null. auth() refuses a revoked session (lib/accounts/sessions.ts); the
 * answer is remembered per cookie for a few seconds, and
 * checks of one cookie at the same moment share one (lib/accounts/session-cache.ts says how a
 * revocation reaches it).
 */
export async function currentUser(): Promise<SessionUser | null> {
  const key = await sessionCookieKey();
  if (!key) return null;
  return sessionCache().lookup(key, async () => {
    const session = await auth();
    const id = session?.user?.id;
    return id ? { id, email: session.user?.email ?? "" } : null;
  });
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
