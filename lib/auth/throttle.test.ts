import { describe, expect, it } from "vitest";
import { waitSeconds } from "./throttle";

describe("sign-in slow-down", () => {
  it("lets three failures pass, then doubles the wait up to five minutes", () => {
    expect([0, 1, 2].map(waitSeconds)).toEqual([0, 0, 0]);
    expect([3, 4, 5, 6].map(waitSeconds)).toEqual([2, 4, 8, 16]);
    expect(waitSeconds(30)).toBe(300);
  });
});
