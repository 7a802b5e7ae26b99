import { describe, expect, it } from "vitest";
import { housekeepingIntervalMs } from "./housekeeping";

describe("housekeepingIntervalMs", () => {
  it("is a quarter of the retention, between 1 s and 15 minutes", () => {
    expect(housekeepingIntervalMs(72 * 3_600_000)).toBe(15 * 60_000);
    expect(housekeepingIntervalMs(0.5 * 3_600_000)).toBe(7.5 * 60_000);
    expect(housekeepingIntervalMs(0.002 * 3_600_000)).toBe(1_800);
    expect(housekeepingIntervalMs(100)).toBe(1_000);
  });
  it("is 15 minutes when files are kept forever (crash leftovers are still removed)", () => {
    expect(housekeepingIntervalMs(null)).toBe(15 * 60_000);
  });
});
