import { describe, expect, it } from "vitest";
import { formatLength, gridStep, niceLength, scaleBar } from "./measure";

describe("measure", () => {
  it("rounds lengths up to 1, 2 or 5 × 10^k", () => {
    expect([0.3, 1, 1.5, 3, 7, 12, 120].map(niceLength)).toEqual([0.5, 1, 2, 5, 10, 20, 200]);
  });

  it("gives a 120 mm relief 20 mm grid squares and a 100 mm figure 10 mm ones", () => {
    expect(gridStep(120)).toBe(20);
    expect(gridStep(100)).toBe(10);
  });

  it("makes the scale bar a round length at least 60 pixels long", () => {
    expect(scaleBar(4)).toEqual({ mm: 20, px: 80 });
    expect(scaleBar(0.5)).toEqual({ mm: 200, px: 100 });
  });

  it("says lengths in mm with one decimal", () => {
    expect(formatLength(42.26)).toBe("42.3 mm");
    expect(formatLength(1250)).toBe("1.25 m");
  });
});
