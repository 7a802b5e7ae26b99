import { describe, expect, it } from "vitest";
import { SessionCache } from "./session-cache";

const ANN = { id: "u1", email: "ann@example.com" };

describe("SessionCache", () => {
  it("remembers the user behind a cookie for its time to live", () => {
    let now = 0;
    const cache = new SessionCache(5_000, 100, () => now);
    cache.set("c1", ANN, cache.ticket());
    cache.set("c2", null, cache.ticket());
    expect(cache.get("c1")).toEqual(ANN);
    expect(cache.get("c2")).toBeNull();
    now = 5_000;
    expect(cache.get("c1")).toBeUndefined();
  });

  it("forgets everything at once when a session is revoked", () => {
    const cache = new SessionCache();
    cache.set("c1", ANN, cache.ticket());
    cache.forgetAll();
    expect(cache.get("c1")).toBeUndefined();
  });

  it("does not store an answer found by a check that began before a revocation", () => {
    const cache = new SessionCache();
    const ticket = cache.ticket(); // a check starts, reads the session as valid...
    cache.forgetAll(); // ...while the session is revoked
    cache.set("c1", ANN, ticket);
    expect(cache.get("c1")).toBeUndefined();
    cache.set("c1", null, cache.ticket());
    expect(cache.get("c1")).toBeNull();
  });
});

describe("SessionCache.lookup", () => {
  const deferred = <T>() => {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };

  it("asks once for a burst of checks of the same cookie, and all get the answer", async () => {
    const cache = new SessionCache();
    const pending = deferred<typeof ANN | null>();
    let asked = 0;
    const load = () => {
      asked++;
      return pending.promise;
    };
    const answers = Promise.all(Array.from({ length: 50 }, () => cache.lookup("c1", load)));
    pending.resolve(ANN);
    expect(await answers).toEqual(Array.from({ length: 50 }, () => ANN));
    expect(asked).toBe(1);
    expect(await cache.lookup("c1", load)).toEqual(ANN);
    expect(asked).toBe(1);
  });

  it("asks separately for different cookies", async () => {
    const cache = new SessionCache();
    const seen: string[] = [];
    const [a, b] = await Promise.all([
      cache.lookup("c1", async () => (seen.push("c1"), ANN)),
      cache.lookup("c2", async () => (seen.push("c2"), null)),
    ]);
    expect(a).toEqual(ANN);
    expect(b).toBeNull();
    expect(seen.sort()).toEqual(["c1", "c2"]);
  });

  it("does not hand a check after a revocation the answer of one that began before it", async () => {
    const cache = new SessionCache();
    const before = deferred<typeof ANN | null>();
    const first = cache.lookup("c1", () => before.promise);
    cache.forgetAll();
    let askedAfter = 0;
    const second = cache.lookup("c1", async () => (askedAfter++, null));
    before.resolve(ANN);
    expect(await first).toEqual(ANN);
    expect(await second).toBeNull();
    expect(askedAfter).toBe(1);
    expect(cache.get("c1")).toBeNull();
  });

  it("passes a failure to every waiting check and remembers nothing, so the next check asks again", async () => {
    const cache = new SessionCache();
    const pending = deferred<typeof ANN | null>();
    const a = cache.lookup("c1", () => pending.promise);
    const b = cache.lookup("c1", () => pending.promise);
    pending.reject(new Error("database gone"));
    await expect(a).rejects.toThrow("database gone");
    await expect(b).rejects.toThrow("database gone");
    expect(cache.get("c1")).toBeUndefined();
    expect(await cache.lookup("c1", async () => ANN)).toEqual(ANN);
  });
});
