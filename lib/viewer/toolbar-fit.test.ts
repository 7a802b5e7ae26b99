import { describe, expect, it } from "vitest";
import { pillWidth, toolsThatFit } from "./toolbar-fit";

describe("toolsThatFit", () => {
  it("keeps every tool when the row is wide enough", () => {
    expect(pillWidth(9)).toBe(9 * 36 + 8 * 2 + 10);
    expect(toolsThatFit(pillWidth(9), 9)).toBe(9);
    expect(toolsThatFit(1200, 9)).toBe(9);
  });

  it("hands the rest to the More menu, whose button takes a slot", () => {
    // One px short of nine: eight slots fit, seven tools and More.
    expect(toolsThatFit(pillWidth(9) - 1, 9)).toBe(7);
    // A 390 px phone leaves 374 px: all nine (350 px).
    expect(toolsThatFit(374, 9)).toBe(9);
    // 300 px: seven slots (276 px), six tools and More.
    expect(toolsThatFit(300, 9)).toBe(6);
    for (let width = 40; width < 400; width += 7) {
      const n = toolsThatFit(width, 9);
      expect(pillWidth(n === 9 ? 9 : n + 1) <= width || n === 0).toBe(true);
    }
  });

  it("leaves only the More menu in a box too narrow for two", () => {
    expect(toolsThatFit(60, 9)).toBe(0);
    expect(toolsThatFit(0, 9)).toBe(0);
  });
});
