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
