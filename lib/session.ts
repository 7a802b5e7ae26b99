import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth";
import { TtlCache } from "@/lib/ttl-cache";

export interface SessionUser {
  id: string;
  email: string;
}

/**
 * Each session check derives a key and decrypts the session (a JWE), and a task page polls
 * every two seconds: the user behind one session cookie is remembered briefly.
 */
const SESSION_CACHE_MS = 5_000;
const sessions = new TtlCache<string, SessionUser | null>(SESSION_CACHE_MS, 10_000);

/** Auth.js's session cookie, possibly chunked (`.0`, `.1`) and `__Secure-` prefixed behind HTTPS. */
const isSessionCookie = (name: string) => /^(__Secure-)?authjs\.session-token(\.\d+)?$/.test(name);

/** The signed-in user, or null. */
export async function currentUser(): Promise<SessionUser | null> {
  const jar = await cookies();
  const key = jar
    .getAll()
    .filter((c) => isSessionCookie(c.name))
    .map((c) => `${c.name}=${c.value}`)
    .join(";");
  if (!key) return null;
  const known = sessions.get(key);
  if (known !== undefined) return known;
  const session = await auth();
  const id = session?.user?.id;
  const user = id ? { id, email: session.user?.email ?? "" } : null;
  sessions.set(key, user);
  return user;
}

/** The signed-in user; pages without one go to sign-in. */
export async function requireUser(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  return user;
}
