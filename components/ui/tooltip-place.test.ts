import { describe, expect, it } from "vitest";
import { MARGIN_PX, placeTooltip, type Box } from "./tooltip-place";

const screen = { width: 1400, height: 900 };
const box = (left: number, top: number, width = 36, height = 36): Box => ({
  left,
  top,
  width,
  height,
  right: left + width,
  bottom: top + height,
});
const label = { width: 120, height: 28 };

describe("placeTooltip", () => {
  it("centres the label on the asked side, offset from the trigger", () => {
    expect(placeTooltip(box(500, 400), label, "top", 6, screen)).toEqual({ x: 500 + 18 - 60, y: 400 - 6 - 28, side: "top" });
    expect(placeTooltip(box(500, 400), label, "bottom", 6, screen)).toEqual({ x: 458, y: 400 + 36 + 6, side: "bottom" });
    expect(placeTooltip(box(500, 400), label, "left", 6, screen)).toEqual({ x: 500 - 6 - 120, y: 400 + 18 - 14, side: "left" });
    expect(placeTooltip(box(500, 400), label, "right", 6, screen)).toEqual({ x: 536 + 6, y: 404, side: "right" });
  });

  it("flips to the opposite side when the asked one has no room", () => {
    // A header button: no room above.
    expect(placeTooltip(box(500, 10), label, "top", 6, screen).side).toBe("bottom");
    // A button at the foot of the screen: no room below.
    expect(placeTooltip(box(500, 870, 36, 28), label, "bottom", 6, screen)).toMatchObject({ side: "top", y: 870 - 6 - 28 });
    expect(placeTooltip(box(20, 400), label, "left", 6, screen).side).toBe("right");
    expect(placeTooltip(box(1360, 400), label, "right", 6, screen).side).toBe("left");
  });

  it("keeps the asked side when neither side has room", () => {
    expect(placeTooltip(box(500, 10, 36, 880), label, "top", 6, screen).side).toBe("top");
  });

  it("slides the label along its side to stay on screen", () => {
    // A button at the left edge of a phone: the label starts at the margin, not off screen.
    expect(placeTooltip(box(2, 400), label, "bottom", 6, { width: 390, height: 844 }).x).toBe(MARGIN_PX);
    // At the right edge: it ends at the margin.
    expect(placeTooltip(box(370, 400, 20, 20), label, "bottom", 6, { width: 390, height: 844 }).x).toBe(390 - 120 - MARGIN_PX);
    // A side label near the bottom slides up.
    expect(placeTooltip(box(500, 880, 36, 16), label, "right", 6, screen).y).toBe(900 - 28 - MARGIN_PX);
  });
});
