import { describe, expect, it } from "vitest";
import type { MeshPart } from "@/lib/engine/mesh/types";
import { box, sceneOf, uvSphere } from "./generate.test-helpers";
import {
  checkManifold,
  flipWinding,
  meshBounds,
  plainPart,
  sceneBounds,
  sceneVolume,
  signedVolume,
  taubinSmooth,
  vertexNeighbours,
  vertexNormals,
  weldScene,
} from "./mesh-ops";
import { mulberry32 } from "./random";

const part = (positions: number[], indices: number[], name = "p"): MeshPart => ({
  name,
  positions: new Float32Array(positions),
  indices: new Uint32Array(indices),
});

/** Every triangle with its own three vertices (seams everywhere). */
function unweld({ name, positions, indices }: MeshPart): MeshPart {
  const out = new Float32Array(indices.length * 3);
  indices.forEach((v, i) => out.set(positions.subarray(v * 3, v * 3 + 3), i * 3));
  return { name, positions: out, indices: Uint32Array.from({ length: indices.length }, (_, i) => i) };
}

const corner = (p: Float32Array, v: number): number[] => [p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!];

describe("meshBounds and sceneBounds", () => {
  it("give the per-axis minimum and maximum", () => {
    const b = meshBounds(new Float32Array([1, -2, 3, -4, 5, -6, 0, 0, 7]));
    expect(b).toEqual({ min: [-4, -2, -6], max: [1, 5, 7] });
  });

  it("grow the bounds given to them, and the scene's over all its parts", () => {
    const into = { min: [0, 0, 0] as [number, number, number], max: [1, 1, 1] as [number, number, number] };
    expect(meshBounds(new Float32Array([2, 0.5, -1]), into)).toBe(into);
    expect(into).toEqual({ min: [0, 0, -1], max: [2, 1, 1] });
    const scene = sceneOf(box([0, 0, 0], [1, 1, 1]), box([-2, 3, 0.5], [-1, 4, 9]));
    expect(sceneBounds(scene)).toEqual({ min: [-2, 0, 0], max: [1, 4, 9] });
    expect(sceneBounds(sceneOf())).toEqual({ min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] });
  });
});

describe("signedVolume, sceneVolume and flipWinding", () => {
  it("give a unit cube volume 1, -1 once flipped, and a box its w h d anywhere in space", () => {
    const cube = box([0, 0, 0], [1, 1, 1]);
    expect(signedVolume(cube.positions, cube.indices)).toBeCloseTo(1, 12);
    expect(flipWinding(cube.indices)).toBe(cube.indices);
    expect(signedVolume(cube.positions, cube.indices)).toBeCloseTo(-1, 12);
    const b = box([-3, 2, 5], [-1, 5, 9]);
    expect(signedVolume(b.positions, b.indices)).toBeCloseTo(24, 5);
    expect(sceneVolume(sceneOf(cube, b))).toBeCloseTo(23, 5);
    expect(sceneVolume(sceneOf())).toBe(0);
  });

  it("swaps the last two corners of every triangle", () => {
    expect(Array.from(flipWinding(new Uint32Array([0, 1, 2, 3, 4, 5])))).toEqual([0, 2, 1, 3, 5, 4]);
  });

  it("gives a tetrahedron a sixth of its box, off the origin", () => {
    const t = part([1, 1, 1, 3, 1, 1, 1, 4, 1, 1, 1, 5], [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
    expect(signedVolume(t.positions, t.indices)).toBeCloseTo((2 * 3 * 4) / 6, 5);
  });
});

describe("vertexNormals and plainPart", () => {
  it("are the normalised sum of the adjacent faces' cross products (so area-weighted)", () => {
    const next = mulberry32(11);
    const positions = Float32Array.from({ length: 24 }, () => next() * 2 - 1);
    const indices = new Uint32Array([0, 1, 2, 0, 2, 3, 0, 3, 4, 4, 5, 6, 1, 6, 5, 2, 4, 6]);
    const n = vertexNormals(positions, indices);
    for (let v = 0; v < 8; v++) {
      const s: [number, number, number] = [0, 0, 0];
      for (let t = 0; t < indices.length; t += 3) {
        const [a, b, c] = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
        if (a !== v && b !== v && c !== v) continue;
        const u = [0, 1, 2].map((k) => positions[b * 3 + k]! - positions[a * 3 + k]!);
        const w = [0, 1, 2].map((k) => positions[c * 3 + k]! - positions[a * 3 + k]!);
        s[0] += u[1]! * w[2]! - u[2]! * w[1]!;
        s[1] += u[2]! * w[0]! - u[0]! * w[2]!;
        s[2] += u[0]! * w[1]! - u[1]! * w[0]!;
      }
      const l = Math.hypot(s[0]!, s[1]!, s[2]!);
      const expected = v === 7 ? [0, 0, 0] : s.map((x) => x / l); // vertex 7 is in no triangle
      for (let k = 0; k < 3; k++) expect(n[v * 3 + k]).toBeCloseTo(expected[k]!, 5);
    }
  });

  it("weight by area: a big face outweighs a small one", () => {
    // Vertex 0 shared by a 1x1 triangle in z = 0 (normal +z) and a 3x3 one in x = 0 (normal +x).
    const p = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 3, 0, 0, 0, 3]);
    const n = vertexNormals(p, new Uint32Array([0, 1, 2, 0, 3, 4]));
    expect(corner(n, 0).map((x) => x * Math.hypot(1, 9))).toEqual([expect.closeTo(9, 5), 0, expect.closeTo(1, 5)]);
    expect(corner(n, 1)).toEqual([0, 0, 1]);
    expect(corner(n, 4)).toEqual([1, 0, 0]);
  });

  it("plainPart keeps the name and arrays and adds the vertex normals", () => {
    const b = box([0, 0, 0], [1, 2, 3]);
    const p = plainPart("lid", b.positions, b.indices);
    expect(p.name).toBe("lid");
    expect(p.positions).toBe(b.positions);
    expect(p.indices).toBe(b.indices);
    expect(Array.from(p.normals!)).toEqual(Array.from(vertexNormals(b.positions, b.indices)));
    expect(Object.keys(p).sort()).toEqual(["indices", "name", "normals", "positions"]);
  });
});

/** Vertices welded by their quantised cell (a string key), in first-seen order. */
function naiveWeld(parts: MeshPart[], eps: number) {
  const b = sceneBounds(sceneOf(...parts));
  const size = Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2], 1e-9);
  const q = Math.min(131_071, Math.round(1 / Math.max(eps, 1 / 131_071))) / size;
  const ids = new Map<string, number>();
  const positions: number[] = [];
  const indices: number[] = [];
  for (const p of parts) {
    const remap = Array.from({ length: p.positions.length / 3 }, (_, v) => {
      const key = [0, 1, 2].map((c) => Math.round((p.positions[v * 3 + c]! - b.min[c]!) * q)).join(",");
      if (!ids.has(key)) {
        ids.set(key, ids.size);
        positions.push(...corner(p.positions, v));
      }
      return ids.get(key)!;
    });
    for (let t = 0; t < p.indices.length; t += 3) {
      const [a, c1, c2] = [remap[p.indices[t]!]!, remap[p.indices[t + 1]!]!, remap[p.indices[t + 2]!]!];
      if (a !== c1 && c1 !== c2 && a !== c2) indices.push(a, c1, c2);
    }
  }
  return { positions, indices };
}

describe("weldScene", () => {
  it("welds an unwelded box over two parts into 8 shared corners, closed and oriented", () => {
    const b = unweld(box([0, 0, 0], [2, 1, 1]));
    const half = b.indices.length / 2;
    const first: MeshPart = { name: "a", positions: b.positions.slice(0, half * 3), indices: b.indices.slice(0, half) };
    const second: MeshPart = { name: "b", positions: b.positions.slice(half * 3), indices: b.indices.slice(0, half) };
    const w = weldScene(sceneOf(first, second));
    expect(w.positions.length / 3).toBe(8);
    expect(w.indices.length).toBe(36);
    expect(checkManifold(w.indices)).toEqual({ closed: true, oriented: true, boundaryEdges: 0, nonManifoldEdges: 0 });
    expect(signedVolume(w.positions, w.indices)).toBeCloseTo(2, 5);
    // Each triangle keeps its corner positions.
    for (let i = 0; i < 36; i++) expect(corner(w.positions, w.indices[i]!)).toEqual(corner(b.positions, b.indices[i]!));
  });

  it("welds within eps times the model size and not beyond, dropping triangles that collapse", () => {
    // Size 10: eps 0.01 gives cells of 0.1.
    const p = part([0, 0, 0, 10, 0, 0, 0, 10, 0, 5, 5, 0, 5.02, 5.01, 0, 5.2, 5, 0], [0, 1, 3, 0, 3, 2, 3, 4, 5, 1, 4, 2]);
    const w = weldScene(sceneOf(p), 0.01);
    expect(w.positions).toEqual(new Float32Array([0, 0, 0, 10, 0, 0, 0, 10, 0, 5, 5, 0, 5.2, 5, 0]));
    expect(Array.from(w.indices)).toEqual([0, 1, 3, 0, 3, 2, 1, 3, 2]);
    // The default eps (1e-5) keeps them apart.
    expect(weldScene(sceneOf(p)).positions.length / 3).toBe(6);
  });

  it("matches a naive weld of random clusters over several parts, tolerances and offsets", () => {
    for (let seed = 1; seed <= 16; seed++) {
      const next = mulberry32(seed);
      const scale = [1, 1000, 0.001][seed % 3]!;
      const eps = [1e-5, 0.01, 0.05, 1e-9][seed % 4]!;
      // Each axis has its own offset and extent, so the largest extent may be any one.
      const offset = [0, 1, 2].map(() => (next() - 0.5) * 7.3 * scale);
      const extent = [0, 1, 2].map(() => 0.2 + next());
      const parts = [0, 1, 2].map((k) => {
        const n = 5 + Math.floor(next() * 20);
        const positions = Array.from({ length: n * 3 }, (_, i) => {
          const c = i % 3;
          // Points in a few clusters whose spread is about two weld cells.
          return offset[c]! + (Math.round(next() * 4) / 4) * extent[c]! * scale + next() * 2 * eps * scale;
        });
        const indices = Array.from({ length: 3 * (2 + Math.floor(next() * 10)) }, () => Math.floor(next() * n));
        return part(positions, indices, `p${k}`);
      });
      const w = weldScene(sceneOf(...parts), eps);
      const e = naiveWeld(parts, eps);
      expect(Array.from(w.positions)).toEqual(Array.from(new Float32Array(e.positions)));
      expect(Array.from(w.indices)).toEqual(e.indices);
    }
  });

  it("measures the cells from the bounds' corner, with the largest extent on z", () => {
    // Size 1 (z from 100.3325 to 101.3325), eps 0.01: cells of 0.01 from z = 100.3325, so 100.3545
    // and 100.3565 share one and 100.3605 is in the next.
    const z = [100.3325, 101.3325, 100.3545, 100.3605, 100.3565];
    const p = part([0, 0, z[0]!, 0.5, 0.5, z[1]!, 0, 0, z[2]!, 0, 0, z[3]!, 0, 0, z[4]!], []);
    const w = weldScene(sceneOf(p), 0.01);
    expect(w.positions).toEqual(new Float32Array([0, 0, z[0]!, 0.5, 0.5, z[1]!, 0, 0, z[2]!, 0, 0, z[3]!]));
  });

  it("keeps points apart that differ in one coordinate only, on each axis, at full resolution", () => {
    const p = part([0, 0, 0, 1, 1, 1, 1e-5, 0, 0, 0, 1e-5, 0, 0, 0, 1e-5, 1e-5, 1e-5, 0], []);
    expect(weldScene(sceneOf(p), 1e-9).positions.length / 3).toBe(6);
  });
});

/** Uses per undirected edge counted by direction, with string keys. */
function naiveManifold(indices: Uint32Array) {
  const uses = new Map<string, [number, number]>();
  for (let t = 0; t < indices.length; t += 3)
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]!,
        b = indices[t + ((e + 1) % 3)]!;
      const k = `${Math.min(a, b)}-${Math.max(a, b)}`;
      const u = uses.get(k) ?? [0, 0];
      u[a < b ? 0 : 1]++;
      uses.set(k, u);
    }
  let boundaryEdges = 0,
    nonManifoldEdges = 0,
    misoriented = 0;
  for (const [f, b] of uses.values()) {
    if (f + b === 1) boundaryEdges++;
    else if (f + b > 2) nonManifoldEdges++;
    else if (f !== 1) misoriented++;
  }
  return { closed: boundaryEdges === 0 && nonManifoldEdges === 0, oriented: misoriented === 0, boundaryEdges, nonManifoldEdges };
}

describe("checkManifold", () => {
  it("finds a box and a sphere closed and oriented", () => {
    for (const m of [box([0, 0, 0], [1, 1, 1]), uvSphere(1, 6, 8)])
      expect(checkManifold(m.indices)).toEqual({ closed: true, oriented: true, boundaryEdges: 0, nonManifoldEdges: 0 });
  });

  it("counts the boundary of an open box and the misoriented face of a closed one", () => {
    const b = box([0, 0, 0], [1, 1, 1]);
    expect(checkManifold(b.indices.slice(3))).toEqual({ closed: false, oriented: true, boundaryEdges: 3, nonManifoldEdges: 0 });
    expect(checkManifold(b.indices.slice(6))).toEqual({ closed: false, oriented: true, boundaryEdges: 4, nonManifoldEdges: 0 });
    const flipped = b.indices.slice();
    flipWinding(flipped.subarray(0, 3));
    expect(checkManifold(flipped)).toEqual({ closed: true, oriented: false, boundaryEdges: 0, nonManifoldEdges: 0 });
    // A triangle twice the same way round: closed but not oriented; the other way: closed and oriented.
    expect(checkManifold(new Uint32Array([0, 1, 2, 0, 1, 2]))).toEqual({
      closed: true,
      oriented: false,
      boundaryEdges: 0,
      nonManifoldEdges: 0,
    });
    expect(checkManifold(new Uint32Array([0, 1, 2, 0, 2, 1]))).toEqual({
      closed: true,
      oriented: true,
      boundaryEdges: 0,
      nonManifoldEdges: 0,
    });
  });

  it("counts an edge shared by three or four triangles as non-manifold", () => {
    expect(checkManifold(new Uint32Array([0, 1, 2, 1, 0, 3, 0, 1, 4]))).toEqual({
      closed: false,
      oriented: true,
      boundaryEdges: 6,
      nonManifoldEdges: 1,
    });
    expect(checkManifold(new Uint32Array([0, 1, 2, 1, 0, 3, 0, 1, 4, 1, 0, 5]))).toMatchObject({ boundaryEdges: 8, nonManifoldEdges: 1 });
  });

  it("matches a naive count on random triangle soups", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const next = mulberry32(seed);
      const nv = 3 + (seed % 6);
      const indices = new Uint32Array(3 * (1 + Math.floor(next() * 12)));
      for (let t = 0; t < indices.length; t += 3) {
        // Some triangles are degenerate (an edge from a vertex to itself).
        indices.set([Math.floor(next() * nv), Math.floor(next() * nv), Math.floor(next() * nv)], t);
      }
      expect(checkManifold(indices)).toEqual(naiveManifold(indices));
    }
  });

  it("tells edges apart whose end points add up alike, with big vertex numbers", () => {
    // Edges 0-3 and 1-2 (stride 4: keys 3 and 6) and a fan around vertex 100000.
    expect(checkManifold(new Uint32Array([0, 1, 2, 2, 1, 3, 0, 2, 3, 0, 3, 1]))).toMatchObject({ closed: true, oriented: true });
    const big = new Uint32Array([
      100_000, 100_001, 100_002, 100_002, 100_001, 100_003, 100_000, 100_002, 100_003, 100_000, 100_003, 100_001,
    ]);
    expect(checkManifold(big)).toEqual({ closed: true, oriented: true, boundaryEdges: 0, nonManifoldEdges: 0 });
  });

  it("counts a degenerate edge apart from the edge from 0 to the last vertex", () => {
    // Edges 1-2 (three uses), 0-1, 2-0, 1-1 (one use each).
    expect(checkManifold(new Uint32Array([0, 1, 2, 1, 1, 2]))).toEqual({
      closed: false,
      oriented: true,
      boundaryEdges: 3,
      nonManifoldEdges: 1,
    });
  });

  it("finds no edges in no triangles", () => {
    expect(checkManifold(new Uint32Array(0))).toEqual({ closed: true, oriented: true, boundaryEdges: 0, nonManifoldEdges: 0 });
  });
});

describe("vertexNeighbours", () => {
  it("lists, per vertex, the other two corners of each of its triangles, in triangle order", () => {
    const { offsets, list } = vertexNeighbours(5, new Uint32Array([0, 1, 2, 2, 1, 3]));
    expect(Array.from(offsets)).toEqual([0, 2, 6, 10, 12, 12]);
    expect(Array.from(list)).toEqual([1, 2, 2, 0, 3, 2, 0, 1, 1, 3, 2, 1]);
  });

  it("gives each vertex of a box twice its triangle count of entries", () => {
    const b = box([0, 0, 0], [1, 1, 1]);
    const { offsets, list } = vertexNeighbours(8, b.indices);
    expect(list.length).toBe(72);
    for (let v = 0; v < 8; v++) {
      const tris = Array.from({ length: 12 }, (_, t) => t).filter((t) => b.indices.subarray(t * 3, t * 3 + 3).includes(v)).length;
      expect(offsets[v + 1]! - offsets[v]!).toBe(2 * tris);
    }
  });
});

/** One lambda step then one mu step, per vertex the mean of its neighbour list. */
function naiveTaubin(positions: Float32Array, indices: Uint32Array, lambda: number, mu: number): Float32Array {
  let p = Array.from(positions);
  const nb: number[][] = Array.from({ length: positions.length / 3 }, () => []);
  for (let t = 0; t < indices.length; t += 3)
    for (let e = 0; e < 3; e++) nb[indices[t + e]!]!.push(indices[t + ((e + 1) % 3)]!, indices[t + ((e + 2) % 3)]!);
  for (const f of [lambda, mu])
    p = p.map((x, i) => {
      const v = Math.floor(i / 3),
        c = i % 3;
      const list = nb[v]!;
      if (list.length === 0) return x;
      const mean = list.reduce((s, u) => s + p[u * 3 + c]!, 0) / list.length;
      return x + f * (mean - x);
    });
  return new Float32Array(p);
}

describe("taubinSmooth", () => {
  it("does one lambda and one mu step per iteration, leaving unconnected vertices alone", () => {
    const next = mulberry32(3);
    const positions = Float32Array.from({ length: 27 }, () => next() * 4);
    const indices = new Uint32Array([0, 1, 2, 1, 3, 2, 2, 3, 4, 4, 5, 6, 6, 7, 4]); // vertex 8 unused
    const expected = naiveTaubin(naiveTaubin(positions, indices, 0.4, -0.6), indices, 0.4, -0.6);
    const p = positions.slice();
    taubinSmooth(p, indices, 2, 0.4, -0.6);
    for (let i = 0; i < 27; i++) expect(p[i]).toBeCloseTo(expected[i]!, 5);
    expect(corner(p, 8)).toEqual(corner(positions, 8));
    // Defaults: lambda 0.5, mu -0.53.
    const d = positions.slice();
    taubinSmooth(d, indices, 1);
    const e = naiveTaubin(positions, indices, 0.5, -0.53);
    for (let i = 0; i < 27; i++) expect(d[i]).toBeCloseTo(e[i]!, 5);
    const none = positions.slice();
    taubinSmooth(none, indices, 0);
    expect(none).toEqual(positions);
  });

  it("keeps a tilted plane flat", () => {
    const next = mulberry32(8);
    const n = 6;
    const pos: number[] = [];
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++) {
        const px = x + (next() - 0.5) * 0.4,
          py = y + (next() - 0.5) * 0.4;
        pos.push(px, py, 0.5 * px - 2 * py + 3);
      }
    const idx: number[] = [];
    for (let y = 0; y < n - 1; y++)
      for (let x = 0; x < n - 1; x++) {
        const a = y * n + x;
        idx.push(a, a + 1, a + n + 1, a, a + n + 1, a + n);
      }
    const p = new Float32Array(pos);
    taubinSmooth(p, new Uint32Array(idx), 5);
    for (let v = 0; v < n * n; v++) expect(p[v * 3 + 2]).toBeCloseTo(0.5 * p[v * 3]! - 2 * p[v * 3 + 1]! + 3, 4);
    expect(Array.from(p)).not.toEqual(pos);
  });

  it("shrinks a sphere far less than as many plain Laplacian steps", () => {
    const s = uvSphere(10, 12, 24);
    const taubin = s.positions.slice();
    taubinSmooth(taubin, s.indices, 10);
    const laplace = s.positions.slice();
    taubinSmooth(laplace, s.indices, 10, 0.5, 0.5);
    const v0 = signedVolume(s.positions, s.indices);
    const vt = signedVolume(taubin, s.indices),
      vl = signedVolume(laplace, s.indices);
    expect(Math.abs(vt - v0) / v0).toBeLessThan(0.05);
    expect((v0 - vl) / v0).toBeGreaterThan(0.2);
  });
});
