import { describe, expect, it } from "vitest";
import { cubeSoup, soupMesh } from "./mesh-analysis.test-helpers";
import { countThinner, searchedThickness } from "./wall-figures";
import { wallThickness } from "./wall-thickness";

/** An axis-aligned box from `lo` to `hi`, as a soup of its 12 outward-facing triangles. */
function box(lo: [number, number, number], hi: [number, number, number]): number[][] {
  return cubeSoup(1).map((t) => t.map((v, i) => lo[i % 3]! + v * (hi[i % 3]! - lo[i % 3]!)));
}

describe("wallThickness", () => {
  it("a 10 mm cube is 10 mm thick everywhere", () => {
    const thickness = wallThickness(soupMesh(cubeSoup(10)), 20);
    expect(Array.from(thickness).map((t) => Math.round(t * 1e4) / 1e4)).toEqual(new Array(12).fill(10));
  });

  it("a 0.5 mm slab: its top and bottom are thin, its edges are not", () => {
    const thickness = wallThickness(soupMesh(box([0, 0, 0], [40, 0.5, 30])), 20);
    // Faces 2 and 3 are the y = 0 / y = 1 pairs in cubeSoup's order (z0, z1, y0, y1, x0, x1).
    const thin = Array.from(thickness, (t, i) => [Math.floor(i / 2), t] as const).filter(([, t]) => t < 0.8);
    expect(thin.map(([face]) => face)).toEqual([2, 2, 3, 3]);
    thin.forEach(([, t]) => expect(t).toBeCloseTo(0.5, 5));
    expect(countThinner(thickness, 0.8)).toBe(4);
    // Side walls are 30 or 40 mm across: beyond the 20 mm looked for.
    expect(countThinner(thickness, Infinity)).toBe(4);
  });

  it("a hollow box's 1 mm walls are measured to the inner wall, not across the cavity", () => {
    const outer = box([0, 0, 0], [20, 20, 20]);
    // The cavity's triangles face inwards: the box turned inside out.
    const inner = box([1, 1, 1], [19, 19, 19]).map((t) => [...t.slice(0, 3), ...t.slice(6, 9), ...t.slice(3, 6)]);
    const thickness = wallThickness(soupMesh([...outer, ...inner]), 50);
    Array.from(thickness).forEach((t) => expect(t).toBeCloseTo(1, 5));
  });
});

describe("searchedThickness", () => {
  it("searches a small model across its diagonal, a large one up to a tenth of it", () => {
    const bounds = { min: [0, 0, 0], max: [3, 4, 12] };
    expect(searchedThickness({ ...bounds, triangles: 12 })).toBe(13);
    expect(searchedThickness({ ...bounds, triangles: 2_000_000 })).toBeCloseTo(1.3, 9);
  });
});
