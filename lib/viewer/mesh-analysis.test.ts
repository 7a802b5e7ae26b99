import { describe, expect, it } from "vitest";
import { analyseMesh, weldByPosition } from "./mesh-analysis";
import { cubeSoup, soupMesh } from "./mesh-analysis.test-helpers";

describe("analyseMesh", () => {
  it("a unit cube is watertight with volume 1 and area 6", () => {
    const a = analyseMesh(soupMesh(cubeSoup()));
    expect(a).toMatchObject({ triangles: 12, vertices: 8, boundaryEdges: 0, nonManifoldEdges: 0, shells: 1 });
    expect(a.volume).toBeCloseTo(1, 6);
    expect(a.area).toBeCloseTo(6, 6);
    expect(a.min).toEqual([0, 0, 0]);
    expect(a.max).toEqual([1, 1, 1]);
  });

  it("a cube turned inside out has a negative volume", () => {
    const inverted = cubeSoup().map((t) => [...t.slice(0, 3), ...t.slice(6, 9), ...t.slice(3, 6)]);
    expect(analyseMesh(soupMesh(inverted)).volume).toBeCloseTo(-1, 6);
  });

  it("an open box (no lid) has the lid's four edges open", () => {
    const box = cubeSoup().filter((_, i) => i !== 2 && i !== 3);
    const a = analyseMesh(soupMesh(box));
    expect(a).toMatchObject({ triangles: 10, boundaryEdges: 4, nonManifoldEdges: 0, shells: 1 });
    expect(a.area).toBeCloseTo(5, 6);
  });

  it("two cubes apart are two shells; their volumes add up", () => {
    const a = analyseMesh(soupMesh([...cubeSoup(1), ...cubeSoup(2, [5, 0, 0])]));
    expect(a).toMatchObject({ triangles: 24, vertices: 16, boundaryEdges: 0, nonManifoldEdges: 0, shells: 2 });
    expect(a.volume).toBeCloseTo(9, 6);
    expect(a.max).toEqual([7, 2, 2]);
  });

  it("a fin on a cube's edge makes that edge non-manifold and opens the fin's two other edges", () => {
    const fin = [1, 1, 0, 1, 1, 1, 2, 2, 0.5];
    const a = analyseMesh(soupMesh([...cubeSoup(), fin]));
    expect(a).toMatchObject({ triangles: 13, boundaryEdges: 2, nonManifoldEdges: 1, shells: 1 });
  });

  it("skips degenerate triangles, as a quantised copy can make them", () => {
    const sliver = [0, 0, 0, 1, 0, 0, 1, 0, 0];
    expect(analyseMesh(soupMesh([...cubeSoup(), sliver]))).toMatchObject({ triangles: 12, boundaryEdges: 0, nonManifoldEdges: 0 });
  });

  it("welds -0 and 0 together", () => {
    expect(weldByPosition(new Float32Array([0, 0, 0, -0, 0, -0, 1, 0, 0])).count).toBe(2);
  });
});
