import { describe, expect, it } from "vitest";
import { depthRange, depthToRgba } from "./depth-image";

describe("depthRange", () => {
  it("keeps 0..1 depth maps on their own scale", () => {
    expect(depthRange({ data: [0.2, 0.5, 0.7], channels: 1 })).toEqual({ lo: 0, hi: 1 });
  });
  it("stretches other ranges, ignoring NaN and infinities, and reads the first channel", () => {
    expect(depthRange({ data: [2, 9, NaN, 9, 6, 9, Infinity, 9], channels: 2 })).toEqual({ lo: 2, hi: 6 });
    expect(depthRange({ data: [5, 5], channels: 1 })).toEqual({ lo: 5, hi: 6 });
    expect(depthRange({ data: [NaN], channels: 1 })).toEqual({ lo: 0, hi: 1 });
  });
});

describe("depthToRgba", () => {
  // 2x2, bottom row first as EXRLoader gives it: bottom = [0, 0.5], top = [1, NaN].
  const img = { width: 2, height: 2, channels: 1, data: new Float32Array([0, 0.5, 1, NaN]) };

  it("flips bottom-up rows to top-first grey pixels", () => {
    const px = depthToRgba(img, true);
    expect(Array.from(px)).toEqual([255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 128, 128, 128, 255]);
  });

  it("keeps top-down rows and skips extra channels", () => {
    const rgba = { width: 1, height: 2, channels: 4, data: [0.25, 9, 9, 1, 1, 9, 9, 1] };
    expect(Array.from(depthToRgba(rgba, false))).toEqual([64, 64, 64, 255, 255, 255, 255, 255]);
  });

  it("refuses short data", () => {
    expect(() => depthToRgba({ width: 4, height: 4, channels: 1, data: [1] }, false)).toThrow(/too short/);
  });
});
