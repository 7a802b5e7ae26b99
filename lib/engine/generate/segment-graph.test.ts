import { describe, expect, it } from "vitest";
import { box } from "./generate.test-helpers";
import { mulberry32 } from "./random";
import { CREASE_BEND, edgeBend, faceNormals, halfEdgeTwins } from "./segment-graph";

/** Pairs the uses of each undirected edge in half-edge order: 1st with 2nd, 3rd with 4th. */
function naiveTwins(indices: Uint32Array): number[] {
  const twin = new Array<number>(indices.length).fill(-1);
  const ends = (h: number) => {
    const a = indices[h]!,
      b = indices[h - (h % 3) + ((h + 1) % 3)]!;
    return `${Math.min(a, b)}-${Math.max(a, b)}`;
  };
  const uses = new Map<string, number[]>();
  for (let h = 0; h < indices.length; h++) uses.set(ends(h), [...(uses.get(ends(h)) ?? []), h]);
  for (const hs of uses.values())
    for (let i = 0; i + 1 < hs.length; i += 2) {
      twin[hs[i]!] = hs[i + 1]!;
      twin[hs[i + 1]!] = hs[i]!;
    }
  return twin;
}

/** Random triangles over few vertices: edges used once, twice, three or four times, either way round. */
function randomTriangles(faces: number, vertices: number, seed: number): Uint32Array {
  const next = mulberry32(seed);
  const out: number[] = [];
  while (out.length < faces * 3) {
    const a = Math.floor(next() * vertices),
      b = Math.floor(next() * vertices),
      c = Math.floor(next() * vertices);
    if (a !== b && b !== c && a !== c) out.push(a, b, c);
  }
  return new Uint32Array(out);
}

const cross = (u: number[], v: number[]) => [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
const sub = (p: ArrayLike<number>, i: number, j: number) => [
  p[i * 3]! - p[j * 3]!,
  p[i * 3 + 1]! - p[j * 3 + 1]!,
  p[i * 3 + 2]! - p[j * 3 + 2]!,
];
const dot = (u: number[], v: number[]) => u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!;

describe("halfEdgeTwins", () => {
  it("pairs a closed box's half-edges with the opposite direction of the same edge", () => {
    const { indices } = box([0, 0, 0], [1, 1, 1]);
    const twin = halfEdgeTwins(indices);
    for (let h = 0; h < indices.length; h++) {
      const g = twin[h]!;
      expect(g).toBeGreaterThanOrEqual(0);
      expect(twin[g]).toBe(h);
      expect(indices[g]).toBe(indices[h - (h % 3) + ((h + 1) % 3)]);
      expect(indices[g - (g % 3) + ((g + 1) % 3)]).toBe(indices[h]);
    }
  });

  it("leaves open edges at -1 and pairs the uses of one edge in order, whatever their direction", () => {
    // Edge 0-1 used four times (two faces each way), edge 1-2 three times.
    const indices = new Uint32Array([0, 1, 2, 1, 0, 3, 0, 1, 4, 1, 2, 5, 2, 1, 6, 1, 0, 7]);
    expect(Array.from(halfEdgeTwins(indices))).toEqual(naiveTwins(indices));
    expect(Array.from(halfEdgeTwins(indices))).toEqual([3, 9, -1, 0, -1, -1, 15, -1, -1, 1, -1, -1, -1, -1, -1, 6, -1, -1]);
  });

  it("matches the naive pairing on random meshes, with or without the vertex count", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const nv = 4 + (seed % 7);
      const indices = randomTriangles(3 + seed, nv, seed);
      const expected = naiveTwins(indices);
      expect(Array.from(halfEdgeTwins(indices))).toEqual(expected);
      expect(Array.from(halfEdgeTwins(indices, nv + 3))).toEqual(expected);
      let used = 0;
      for (const v of indices) used = Math.max(used, v + 1);
      expect(Array.from(halfEdgeTwins(indices, used))).toEqual(expected);
    }
  });

  it("gives an empty array for no triangles", () => {
    expect(halfEdgeTwins(new Uint32Array(0)).length).toBe(0);
  });
});

describe("faceNormals", () => {
  it("gives unit normals by the right-hand rule and half the cross product's length as area", () => {
    const positions = new Float32Array([0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4]);
    const { normal, area } = faceNormals(positions, new Uint32Array([0, 1, 2, 0, 2, 1, 0, 3, 1, 0, 2, 3]));
    expect(Array.from(normal)).toEqual([0, 0, 1, 0, 0, -1, 0, 1, 0, 1, 0, 0]);
    expect(Array.from(area)).toEqual([3, 3, 4, 6]);
  });

  it("matches the cross product on random triangles", () => {
    const next = mulberry32(5);
    const positions = Float32Array.from({ length: 30 }, () => next() * 4 - 2);
    const indices = randomTriangles(12, 10, 6);
    const { normal, area } = faceNormals(positions, indices);
    for (let f = 0; f < 12; f++) {
      const [a, b, c] = [indices[f * 3]!, indices[f * 3 + 1]!, indices[f * 3 + 2]!];
      const n = cross(sub(positions, b, a), sub(positions, c, a));
      const l = Math.hypot(n[0]!, n[1]!, n[2]!);
      expect(area[f]).toBeCloseTo(l / 2, 5);
      for (let k = 0; k < 3; k++) expect(normal[f * 3 + k]).toBeCloseTo(n[k]! / l, 5);
    }
  });

  it("gives degenerate faces a zero normal and zero area", () => {
    const positions = new Float32Array([0, 0, 0, 1, 1, 1, 2, 2, 2]);
    const { normal, area } = faceNormals(positions, new Uint32Array([0, 1, 2, 1, 1, 0]));
    expect(Array.from(normal)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(area)).toEqual([0, 0]);
  });
});

/** Two triangles over edge 0-1 on the x axis: one in the y = 0 plane, its neighbour turned by `turn` radians. */
function hinge(turn: number): { positions: Float32Array; indices: Uint32Array } {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0.5, -1, 0, 0.5, Math.cos(turn), Math.sin(turn)]);
  // Face 0 (1, 0, 2) has normal +z; face 1 runs the shared edge the other way.
  return { positions, indices: new Uint32Array([1, 0, 2, 0, 1, 3]) };
}

function bends(m: { positions: Float32Array; indices: Uint32Array }): Float32Array {
  const twin = halfEdgeTwins(m.indices);
  return edgeBend(m.positions, m.indices, twin, faceNormals(m.positions, m.indices).normal);
}

describe("edgeBend", () => {
  it("is 1 - cos of the turn, positive for a valley and negative for a ridge, on both half-edges", () => {
    for (const deg of [10, 30, 60, 90, 135]) {
      const t = (deg * Math.PI) / 180;
      // Far vertex above face 0's plane (+z side): a valley.
      const valley = bends(hinge(t));
      expect(valley[0]).toBeCloseTo(1 - Math.cos(t), 5);
      expect(valley[3]).toBe(valley[0]);
      const ridge = bends(hinge(-t));
      expect(ridge[0]).toBeCloseTo(-(1 - Math.cos(t)), 5);
      expect(ridge[3]).toBe(ridge[0]);
      // Open edges stay 0.
      for (const h of [1, 2, 4, 5]) expect(valley[h]).toBe(0);
    }
  });

  it("finds the far vertex whichever corner the twin half-edge starts at", () => {
    const t = Math.PI / 3;
    for (const [i, rot] of [
      [0, 1, 3],
      [1, 3, 0],
      [3, 0, 1],
    ].entries()) {
      const m = hinge(t);
      m.indices.set(rot, 3);
      const b = bends(m);
      const g = [3, 5, 4][i]!;
      expect(b[0]).toBeCloseTo(1 - Math.cos(t), 5);
      expect(b[g]).toBe(b[0]);
    }
  });

  it("is -1 on every edge of a cube between two sides and 0 across each side's diagonal", () => {
    const cube = box([0, 0, 0], [2, 2, 2]);
    const b = bends(cube);
    const twin = halfEdgeTwins(cube.indices);
    const { normal } = faceNormals(cube.positions, cube.indices);
    for (let h = 0; h < b.length; h++) {
      const f = Math.floor(h / 3),
        g = Math.floor(twin[h]! / 3);
      const coplanar =
        dot([normal[f * 3]!, normal[f * 3 + 1]!, normal[f * 3 + 2]!], [normal[g * 3]!, normal[g * 3 + 1]!, normal[g * 3 + 2]!]) > 0.5;
      expect(Math.abs(b[h]! - (coplanar ? 0 : -1))).toBeLessThan(1e-6);
    }
    // A cube with inward normals sees every side edge as a valley.
    const inside = bends({ positions: cube.positions, indices: cube.indices.slice().reverse() });
    expect(Math.max(...inside)).toBeCloseTo(1, 6);
    expect(Math.min(...inside)).toBeGreaterThan(-1e-6);
  });

  it("reaches a crease exactly at a 30 degree valley", () => {
    expect(CREASE_BEND).toBeCloseTo(1 - Math.sqrt(3) / 2, 12);
    expect(bends(hinge(Math.PI / 6))[0]).toBeCloseTo(CREASE_BEND, 6);
  });
});
