import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache";

describe("TtlCache", () => {
  it("forgets an entry once its time is up", () => {
    let now = 1_000;
    const cache = new TtlCache<string, number>(100, 10, () => now);
    cache.set("a", 1);
    now += 99;
    expect(cache.get("a")).toBe(1);
    now += 1;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps null values apart from absent ones", () => {
    const cache = new TtlCache<string, number | null>(100, 10);
    cache.set("signed-out", null);
    expect(cache.get("signed-out")).toBeNull();
    expect(cache.get("other")).toBeUndefined();
  });

  it("drops the oldest insertion beyond its size, and a rewrite counts as new", () => {
    const cache = new TtlCache<string, number>(1_000, 2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("a", 3);
    cache.set("c", 4);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(3);
    expect(cache.get("c")).toBe(4);
  });
});
