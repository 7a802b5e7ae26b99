import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyseMesh, type MeshInput } from "./mesh-analysis";
import { cubeSoup, soupMesh } from "./mesh-analysis.test-helpers";

/** The plain way, with strings and maps: what the typed counts must agree with. */
function naiveCounts({ positions, indices }: MeshInput) {
  const key = (i: number) => `${positions[i * 3]! + 0},${positions[i * 3 + 1]! + 0},${positions[i * 3 + 2]! + 0}`;
  const welded = new Map<string, number>();
  const id = (i: number) => {
    const k = key(i);
    if (!welded.has(k)) welded.set(k, welded.size);
    return welded.get(k)!;
  };
  for (let i = 0; i < positions.length / 3; i++) id(i);
  const edges = new Map<string, number>();
  const links = new Map<number, Set<number>>();
  const link = (a: number, b: number) => {
    if (!links.has(a)) links.set(a, new Set());
    links.get(a)!.add(b);
  };
  let triangles = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [id(indices[t]!), id(indices[t + 1]!), id(indices[t + 2]!)];
    if (a === b || b === c || a === c) continue;
    triangles++;
    for (const [p, q] of [
      [a, b],
      [b, c],
      [c, a],
    ] as const) {
      const k = `${Math.min(p, q)}-${Math.max(p, q)}`;
      edges.set(k, (edges.get(k) ?? 0) + 1);
      link(p, q);
      link(q, p);
    }
  }
  let shells = 0;
  const seen = new Set<number>();
  for (const start of links.keys()) {
    if (seen.has(start)) continue;
    shells++;
    const todo = [start];
    seen.add(start);
    while (todo.length) for (const next of links.get(todo.pop()!)!) if (!seen.has(next) && seen.add(next)) todo.push(next);
  }
  const uses = [...edges.values()];
  return {
    triangles,
    vertices: welded.size,
    boundaryEdges: uses.filter((n) => n === 1).length,
    nonManifoldEdges: uses.filter((n) => n > 2).length,
    shells,
  };
}

const counts = (input: MeshInput) => {
  const { triangles, vertices, boundaryEdges, nonManifoldEdges, shells } = analyseMesh(input);
  return { triangles, vertices, boundaryEdges, nonManifoldEdges, shells };
};

/** Random meshes over a few grid points, so corners weld, edges repeat and triangles degenerate. */
const randomMesh = fc
  .record({
    points: fc.array(fc.tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 }), fc.integer({ min: -1, max: 1 })), {
      minLength: 3,
      maxLength: 40,
    }),
    corners: fc.array(fc.nat(), { minLength: 0, maxLength: 300 }),
  })
  .map(({ points, corners }): MeshInput => {
    const used = corners.slice(0, corners.length - (corners.length % 3));
    return {
      positions: new Float32Array(points.flat().map((v) => v * 0.5)),
      indices: new Uint32Array(used.map((c) => c % points.length)),
    };
  });

describe("analyseMesh's edge, vertex and shell counts", () => {
  it("agree with the plain string-keyed count on random meshes", () => {
    fc.assert(
      fc.property(randomMesh, (mesh) => {
        expect(counts(mesh)).toEqual(naiveCounts(mesh));
      }),
      { numRuns: 300 },
    );
  });

  it("agree on crafted meshes: open edges, fins, a vertex of many edges, several shells", () => {
    const lidless = cubeSoup().slice(2);
    const fins = [...cubeSoup(), [1, 1, 0, 1, 1, 1, 2, 2, 0.5], [1, 1, 0, 1, 1, 1, 2, 3, 0.5]];
    const shells = [...cubeSoup(1), ...cubeSoup(1, [3, 0, 0]), ...cubeSoup(1, [6, 0, 0]).slice(1)];
    // A fan of 100 triangles round one vertex: its edges sort past the short insertion sort.
    const fan: number[][] = [];
    for (let i = 0; i < 100; i++) {
      const a = (i / 100) * 2 * Math.PI,
        b = (((i + 1) % 100) / 100) * 2 * Math.PI;
      fan.push([0, 0, 0, Math.cos(a), Math.sin(a), 0, Math.cos(b), Math.sin(b), 0]);
    }
    for (const [tris, expected] of [
      [lidless, { boundaryEdges: 4, nonManifoldEdges: 0, shells: 1 }],
      [fins, { boundaryEdges: 4, nonManifoldEdges: 1, shells: 1 }],
      [shells, { boundaryEdges: 3, nonManifoldEdges: 0, shells: 3 }],
      [fan, { boundaryEdges: 100, nonManifoldEdges: 0, shells: 1 }],
    ] as const) {
      const mesh = soupMesh(tris.map((t) => [...t]));
      expect(counts(mesh)).toEqual(naiveCounts(mesh));
      expect(counts(mesh)).toMatchObject(expected);
    }
  });

  it("counts nothing in an empty mesh", () => {
    const empty = { positions: new Float32Array(), indices: new Uint32Array() };
    expect(analyseMesh(empty)).toMatchObject({ triangles: 0, vertices: 0, boundaryEdges: 0, shells: 0, min: [0, 0, 0], max: [0, 0, 0] });
  });
});
