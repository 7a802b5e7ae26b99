import { describe, expect, it } from "vitest";
import { mulberry32 } from "./random";

const take = (next: () => number, n: number): number[] => Array.from({ length: n }, () => next());

describe("mulberry32", () => {
  it("gives the reference mulberry32 sequence for seeds 1 and 0", () => {
    expect(take(mulberry32(1), 3)).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522]);
    expect(take(mulberry32(0), 2)).toEqual([0.26642920868471265, 0.0003297457005828619]);
  });

  it("is deterministic per seed and differs between seeds", () => {
    expect(take(mulberry32(42), 50)).toEqual(take(mulberry32(42), 50));
    expect(take(mulberry32(42), 5)).not.toEqual(take(mulberry32(43), 5));
  });

  it("reads the seed as an unsigned 32-bit integer", () => {
    expect(take(mulberry32(-1), 5)).toEqual(take(mulberry32(4294967295), 5));
    expect(take(mulberry32(2 ** 32 + 7), 5)).toEqual(take(mulberry32(7), 5));
  });

  it("stays in [0, 1) with a mean near 1/2 and about a tenth of the draws in each tenth", () => {
    const xs = take(mulberry32(123), 20_000);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 2);
    const bins = new Array<number>(10).fill(0);
    for (const x of xs) bins[Math.floor(x * 10)]!++;
    for (const b of bins) expect(Math.abs(b - 2000)).toBeLessThan(200);
  });
});
