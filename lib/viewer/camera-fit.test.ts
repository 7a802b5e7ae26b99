import { describe, expect, it } from "vitest";
import { fitCamera, isFlat, type Bounds } from "./camera-fit";

const length = (v: number[]): number => Math.hypot(...v);
const cube: Bounds = { min: [9, 19, 29], max: [11, 21, 31] }; // edge 2 around (10, 20, 30)

describe("fitCamera", () => {
  it("centres the model and sizes near/far from its diagonal", () => {
    const fit = fitCamera(cube, { fovDeg: 45, aspect: 1.5 });
    expect(fit.center).toEqual([10, 20, 30]);
    expect(fit.size).toBeCloseTo(2 * Math.sqrt(3));
    expect(fit.near).toBeCloseTo(fit.size / 100);
    expect(fit.far).toBeGreaterThanOrEqual(fit.size * 100);
    expect(fit.maxDistance).toBeGreaterThan(length(fit.position));
  });

  it("puts the bounding sphere exactly inside the narrower half-angle", () => {
    const wide = fitCamera(cube, { fovDeg: 45, aspect: 2 });
    const radius = Math.sqrt(3);
    expect(length(wide.position)).toBeCloseTo(radius / Math.sin(Math.PI / 8));
    // Portrait: the horizontal field is narrower, so the camera backs off further.
    const tall = fitCamera(cube, { fovDeg: 45, aspect: 0.5 });
    const halfH = Math.atan(Math.tan(Math.PI / 8) * 0.5);
    expect(length(tall.position)).toBeCloseTo(radius / Math.sin(halfH));
    expect(length(tall.position)).toBeGreaterThan(length(wide.position));
  });

  it("looks from the front-right and above, more steeply at flat models", () => {
    const upright = fitCamera(cube, { fovDeg: 45, aspect: 1 });
    const [x, y, z] = upright.position;
    expect(x).toBeGreaterThan(0);
    expect(z).toBeGreaterThan(x);
    expect(Math.asin(y / length(upright.position))).toBeCloseTo((20 * Math.PI) / 180);
    const relief: Bounds = { min: [-50, 0, -40], max: [50, 8, 40] };
    expect(isFlat(relief)).toBe(true);
    const flat = fitCamera(relief, { fovDeg: 45, aspect: 1 });
    expect(Math.asin(flat.position[1] / length(flat.position))).toBeCloseTo((55 * Math.PI) / 180);
  });

  it("scales with the model: millimetres and kilometres fit alike", () => {
    const small = fitCamera({ min: [0, 0, 0], max: [0.001, 0.001, 0.001] }, { fovDeg: 45, aspect: 1 });
    const big = fitCamera({ min: [0, 0, 0], max: [1000, 1000, 1000] }, { fovDeg: 45, aspect: 1 });
    expect(big.near / small.near).toBeCloseTo(1e6);
    expect(length(big.position) / length(small.position)).toBeCloseTo(1e6);
  });

  it("survives empty, degenerate and bad input", () => {
    const empty = fitCamera({ min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] }, { fovDeg: 45, aspect: 1 });
    expect(empty.center).toEqual([0, 0, 0]);
    expect(empty.size).toBe(1);
    const point = fitCamera({ min: [1, 2, 3], max: [1, 2, 3] }, { fovDeg: 45, aspect: 0 });
    expect(point.center).toEqual([1, 2, 3]);
    expect(point.size).toBe(1);
    expect(point.position.every(Number.isFinite)).toBe(true);
  });
});
