import { TtlCache } from "@/lib/ttl-cache";

export interface SessionUser {
  id: string;
  email: string;
}

/**
 * The user behind a session cookie, remembered briefly: each check decrypts the cookie (a
 * JWE) and reads the session's row, and a task page polls every two seconds.
 *
 * A revocation in this process (sign-out, sign out everywhere, a password change) forgets
 * every entry at once, and a check that began before it does not store its answer (the
 * generation moved on). Other processes sharing the database see a revocation when their
 * entry expires: within SESSION_CACHE_MS.
 */
const SESSION_CACHE_MS = 5_000;

export class SessionCache {
  private readonly entries: TtlCache<string, SessionUser | null>;
  /** Checks under way, per cookie: a burst of polls when an entry expires makes one check. */
  private readonly pending = new Map<string, Promise<SessionUser | null>>();
  private generation = 0;

  constructor(ttlMs = SESSION_CACHE_MS, maxEntries = 10_000, now: () => number = Date.now) {
    this.entries = new TtlCache(ttlMs, maxEntries, now);
  }

  get(key: string): SessionUser | null | undefined {
    return this.entries.get(key);
  }

  /** A ticket to pass to `set`: the answer found after it is stored only if nothing was revoked meanwhile. */
  ticket(): number {
    return this.generation;
  }

  set(key: string, user: SessionUser | null, ticket: number): void {
    if (ticket === this.generation) this.entries.set(key, user);
  }

  /**
   * The remembered answer for `key`, else the answer of the check under way for it, else
   * `load()`'s, remembered. A check that began before a revocation is not shared after it.
   * A failure reaches every check waiting on it and is not remembered.
   */
  lookup(key: string, load: () => Promise<SessionUser | null>): Promise<SessionUser | null> {
    const known = this.entries.get(key);
    if (known !== undefined) return Promise.resolve(known);
    const under = this.pending.get(key);
    if (under) return under;
    const ticket = this.ticket();
    const check = load().then((user) => {
      this.set(key, user, ticket);
      return user;
    });
    const settle = () => {
      if (this.pending.get(key) === check) this.pending.delete(key);
    };
    check.then(settle, settle);
    this.pending.set(key, check);
    return check;
  }

  /** After a revocation: nothing remembered or under way before it is used again. */
  forgetAll(): void {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
  }
}
