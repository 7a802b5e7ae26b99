import fs from "node:fs";
import path from "node:path";
import { BufferAttribute, BufferGeometry } from "three";
import { MeshBVH } from "three-mesh-bvh";
import { describe, expect, it } from "vitest";
import { compile, MODULES, moduleText } from "@/scripts/build-wasm.mjs";
import type { MeshInput } from "./mesh-analysis";
import { cubeSoup, soupMesh } from "./mesh-analysis.test-helpers";
import { buildMeshIndex } from "./mesh-index";
import { bumpySphere } from "./mesh-index.test-helpers";
import { wallSearch, wallSearchInJs } from "./wall-thickness";
import { wallWalkInWasm, wasmWallSearch } from "./wall-walk";

/** An axis-aligned box from `lo` to `hi` as 12 triangles facing out (or in, `inward`). */
function box(lo: number[], hi: number[], inward = false): number[][] {
  return cubeSoup(1).map((t) => {
    const scaled = t.map((v, i) => lo[i % 3]! + v * (hi[i % 3]! - lo[i % 3]!));
    return inward ? [...scaled.slice(0, 3), ...scaled.slice(6, 9), ...scaled.slice(3, 6)] : scaled;
  });
}

/** A box of `n`³ little cubes' faces, hollowed: many rays run exactly along the boxes' sides. */
function hollowGrid(n: number, at: number): number[][] {
  const tris: number[][] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      tris.push(...box([at + i, at + j, at], [at + i + 1, at + j + 1, at + 0.5]));
      tris.push(...box([at + i + 0.25, at + j + 0.25, at + 0.125], [at + i + 0.75, at + j + 0.75, at + 0.375], true));
    }
  return tris;
}

/** `mesh` moved by `by` on every axis. */
function moved(mesh: MeshInput, by: number): MeshInput {
  return { positions: mesh.positions.map((v) => v + by), indices: mesh.indices };
}

/** Models whose walls are compared: curved and shuffled, far from the origin, axis-aligned, degenerate. */
const MODELS: [string, () => MeshInput][] = [
  ["a bumpy sphere", () => bumpySphere(60, 3)],
  ["a larger one, 10 km from the origin", () => moved(bumpySphere(130, 5), 10_000)],
  ["a grid of hollow cubes (rays along the boxes' sides)", () => soupMesh(hollowGrid(12, 0))],
  ["the same grid far from the origin", () => soupMesh(hollowGrid(12, 4096.5))],
  ["a slab with a degenerate triangle", () => soupMesh([...box([0, 0, 0], [40, 0.5, 30]), [1, 1, 1, 1, 1, 1, 2, 2, 2]])],
];

describe("the thin-wall walk in WebAssembly", () => {
  it("runs here (Node's WebAssembly has SIMD) and is what wallSearch uses", () => {
    expect(wallWalkInWasm()).toBe(true);
    const input = bumpySphere(20, 2);
    const index = buildMeshIndex(input);
    const n = input.indices.length / 3;
    expect(wallSearch(input, index)(2, 0, n)).toEqual(wasmWallSearch(input, index)?.(2, 0, n));
  });

  for (const [name, make] of MODELS) {
    it(`${name}: every wall equal bit for bit to the walk in JavaScript, whole and in stretches`, () => {
      const input = make();
      const index = buildMeshIndex(input);
      const n = input.indices.length / 3;
      const wasm = wasmWallSearch(input, index);
      expect(wasm).not.toBeNull();
      for (const reach of [0.6, 3, 1000]) {
        const expected = wallSearchInJs(input, index)(reach, 0, n);
        const found = wasm?.(reach, 0, n);
        expect(found).toEqual(expected);
        // Something is found and something is not, at the shorter reaches.
        if (reach < 1000) expect(new Set(Array.from(expected, (t) => (Number.isNaN(t) ? "NaN" : t < Infinity)))).toContain(true);
        const third = Math.floor(n / 3);
        expect(wasm?.(reach, third, 2 * third)).toEqual(expected.slice(third, 2 * third));
      }
    });
  }

  it("a search up to nothing or of no places answers Infinity or nothing; places past the end are left out", () => {
    const input = bumpySphere(10, 1);
    const search = wasmWallSearch(input, buildMeshIndex(input));
    expect(Array.from(search?.(0, 0, 5) ?? [])).toEqual([Infinity, Infinity, Infinity, Infinity, Infinity]);
    expect(search?.(5, 7, 7)).toHaveLength(0);
    expect(search?.(5, 195, 1000)).toHaveLength(5);
  });

  it("without WebAssembly's SIMD there is no search here, and wallSearch walks in JavaScript", () => {
    const input = bumpySphere(10, 1);
    const index = buildMeshIndex(input);
    expect(wasmWallSearch(input, index, null)).toBeNull();
    expect(wallSearchInJs(input, index)(3, 0, 200)).toEqual(wallSearch(input, index)(3, 0, 200));
  });

  it("an index with leaves of more than 15 triangles (not one of ours) is walked in JavaScript", () => {
    const input = bumpySphere(30, 4);
    const geometry = new BufferGeometry();
    geometry.setAttribute("position", new BufferAttribute(input.positions, 3));
    geometry.setIndex(new BufferAttribute(input.indices, 1));
    const index = new MeshBVH(geometry, { maxLeafSize: 24, indirect: true });
    expect(wasmWallSearch(input, buildMeshIndex(input))).not.toBeNull();
    expect(wasmWallSearch(input, index)).toBeNull();
    const n = input.indices.length / 3;
    expect(wallSearch(input, index)(3, 0, n)).toEqual(wallSearchInJs(input, index)(3, 0, n));
  });

  it("the committed module is its source compiled (npm run build:wasm)", async () => {
    for (const entry of MODULES) {
      const committed = fs.readFileSync(path.join(import.meta.dirname, "../..", entry.module), "utf8");
      expect(committed, `${entry.module} is stale: run npm run build:wasm`).toBe(moduleText(entry, await compile(entry.source)));
    }
  }, 60_000);
});
