// Exact figures of split.ts on tiny inputs: GROUPS / names, the box layout, the palette, triangle
// clipping (clipSoup, clipSplit), and buildSplitScene on a few triangles and unions of boxes.
import type { Manifold } from "manifold-3d";
import { afterAll, describe, expect, it } from "vitest";
import type { MeshPart, Scene } from "@/lib/engine/mesh/types";
import { InputContentError } from "./errors";
import { sceneOfManifold } from "./humanoid.test-helpers";
import { Arena, getManifold } from "./manifold";
import { meshBounds, signedVolume } from "./mesh-ops";
import {
  GROUPS,
  boxCharacterPlan,
  buildSplitScene,
  carveCharacter,
  clipSoup,
  clipSplit,
  groupName,
  paletteMaterial,
  type SplitPlan,
} from "./split";

const wasm = await getManifold();
const arena = new Arena();
afterAll(() => arena.free());
const I = Infinity;

/** Rounded to 5 decimals (and -0 folded into 0) so float32 coordinates compare exactly. */
const r5 = (xs: ArrayLike<number>) => Array.from(xs, (x) => Math.round(x * 1e5) / 1e5 + 0);
const cube = (min: number[], max: number[]): Manifold =>
  arena.keep(
    arena.keep(wasm.Manifold.cube([max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!])).translate([min[0]!, min[1]!, min[2]!]),
  );
const union = (ms: Manifold[]) => arena.keep(wasm.Manifold.union(ms));
const vol = (p: MeshPart) => signedVolume(p.positions, p.indices);
const names = (s: Scene) => s.parts.map((p) => p.name);
const colours = (s: Scene) => s.parts.map((p) => p.material!.name);
/** A soup of separate triangles (9 numbers each). */
const soupScene = (...tris: number[][]): Scene => ({
  parts: tris.map((t, i) => ({ name: `t${i}`, positions: new Float32Array(t), indices: Uint32Array.from([0, 1, 2]) })),
});
const triArea = (p: ArrayLike<number>) => {
  let a = 0;
  for (let t = 0; t < p.length; t += 9) {
    const u = [0, 1, 2].map((c) => p[t + 3 + c]! - p[t + c]!),
      v = [0, 1, 2].map((c) => p[t + 6 + c]! - p[t + c]!);
    a += Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!) / 2;
  }
  return a;
};

describe("GROUPS and groupName", () => {
  it("the six groupings and their part names", () => {
    expect(Object.fromEntries(Object.entries(GROUPS).map(([k, gs]) => [k, gs.map(groupName)]))).toEqual({
      a: ["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"],
      b: ["head", "torso", "left_arm", "right_arm", "legs"],
      c: ["head_and_torso", "left_arm", "right_arm", "legs"],
      d: ["head", "body", "left_leg", "right_leg"],
      e: ["head", "body", "legs"],
      f: ["head", "body"],
    });
    expect(GROUPS.f).toEqual([["head"], ["torso", "left_arm", "right_arm", "left_leg", "right_leg"]]);
    expect(GROUPS.c[0]).toEqual(["head", "torso"]);
    expect(GROUPS.d[1]).toEqual(["torso", "left_arm", "right_arm"]);
  });
  it("names: one label is itself; no torso -> legs; torso with head -> head_and_torso; else body", () => {
    expect(groupName(["left_arm"])).toBe("left_arm");
    expect(groupName(["left_arm", "right_arm"])).toBe("legs");
    expect(groupName(["torso", "head", "left_arm"])).toBe("head_and_torso");
    expect(groupName(["torso", "left_leg"])).toBe("body");
    expect(groupName(["head", "left_leg"])).toBe("legs");
  });
});

describe("boxCharacterPlan", () => {
  it("x in [-6, 24], y in [10, 110]: neck 95, hip 52, thirds at 4 / 14, centre 9", () => {
    // W = 30, H = 100; neck = 110 - 15 = 95; hip = 10 + 42 = 52; x1 = -6 + 10, x2 = 24 - 10, xc = 9.
    const plan = boxCharacterPlan({ min: [-6, 10, -3], max: [24, 110, 7] }, "a");
    expect(plan.regions).toEqual([
      { name: "head", min: [-I, 95, -I], max: [I, I, I] },
      { name: "torso", min: [4, 52, -I], max: [14, 95, I] },
      { name: "left_arm", min: [14, 52, -I], max: [I, 95, I] },
      { name: "right_arm", min: [-I, 52, -I], max: [4, 95, I] },
      { name: "left_leg", min: [9, -I, -I], max: [I, 52, I] },
      { name: "right_leg", min: [-I, -I, -I], max: [9, 52, I] },
    ]);
    expect(plan.parts.map((p) => p.name)).toEqual(["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"]);
    expect(boxCharacterPlan({ min: [0, 0, 0], max: [1, 1, 1] }, "e").parts).toEqual([
      { name: "head", regions: ["head"] },
      { name: "body", regions: ["torso", "left_arm", "right_arm"] },
      { name: "legs", regions: ["left_leg", "right_leg"] },
    ]);
  });
});

describe("paletteMaterial", () => {
  it("the fixed palette for 0..9", () => {
    expect(paletteMaterial(0)).toEqual({ name: "color_1", baseColorFactor: [0.8, 0.3, 0.25, 1], metallicFactor: 0, roughnessFactor: 0.7 });
    expect(paletteMaterial(9).baseColorFactor).toEqual([0.4, 0.45, 0.85, 1]);
    expect(paletteMaterial(9).name).toBe("color_10");
  });
  it.each([
    // h = frac(i * 0.618034), s = 0.55 + 0.25 * ((i >> 1) % 2), v = 0.8 - 0.2 * (i % 2);
    // channel(k) = v - v s clamp(min(x, 4 - x), 0, 1) with x = (k + 6h) mod 6, for k = 5, 3, 1.
    // i = 10: h = 0.18034, 6h = 1.08204, s 0.8, v 0.8: x = 0.08204, 4.08204 (-> 0), 2.08204 (-> 1).
    [10, [0.8 - 0.64 * 0.0820393, 0.8, 0.16]],
    // i = 11: h = 0.79837, 6h = 4.79024, s 0.8, v 0.6: x = 3.79024 (4-x = 0.20976), 1.79024 (1), 5.79024 (0).
    [11, [0.6 - 0.48 * 0.2097567, 0.12, 0.6]],
    // i = 12: h = 0.41641, 6h = 2.49845, s 0.55, v 0.8: x = 1.49845 (1), 5.49845 (0), 3.49845 (4-x = 0.50155).
    [12, [0.36, 0.8, 0.8 - 0.44 * 0.5015528]],
    // i = 13: h = 0.03444, 6h = 0.20665, s 0.55, v 0.6: x = 5.20665 (0), 3.20665 (0.79335), 1.20665 (1).
    [13, [0.6, 0.6 - 0.33 * 0.7933489, 0.27]],
  ] as const)("golden-angle hue for %i", (i, rgb) => {
    const m = paletteMaterial(i);
    expect(m.name).toBe(`color_${i + 1}`);
    m.baseColorFactor.slice(0, 3).forEach((c, k) => expect(c).toBeCloseTo(rgb[k]!, 6));
    expect(m.baseColorFactor[3]).toBe(1);
  });
});

describe("clipSoup", () => {
  const soup = (p: number[]) => ({
    positions: new Float32Array(p),
    indices: Uint32Array.from(p.slice(0, p.length / 3), (_, i) => i),
    area: 0,
  });
  it("x = 1 through the triangle (0,0)(2,0)(0,2): a fan quad (area 1.5) and a triangle (0.5)", () => {
    // Crossings at the midpoints (1,0) and (1,1); side 0 polygon: v0, (1,0), (1,1), v2.
    const [lo, hi] = clipSoup(soup([0, 0, 0, 2, 0, 0, 0, 2, 0]), [1, 0, 0], 1);
    expect(r5(lo!.positions)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 2, 0]);
    expect(Array.from(lo!.indices)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(lo!.area).toBeCloseTo(1.5, 6);
    expect(r5(hi!.positions)).toEqual([1, 0, 0, 2, 0, 0, 1, 1, 0]);
    expect(Array.from(hi!.indices)).toEqual([0, 1, 2]);
    expect(hi!.area).toBeCloseTo(0.5, 6);
  });
  it("a tilted plane: y - z = 1 cuts (0,0,0)(0,4,0)(0,0,4) at quarter points", () => {
    // d = y - z - 1: -1, 3, -5. Edge v0->v1 at f = 1/4 -> (0,1,0); v1->v2 at f = 3/8 -> (0,2.5,1.5).
    const [lo, hi] = clipSoup(soup([0, 0, 0, 0, 4, 0, 0, 0, 4]), [0, 1, -1], 1);
    expect(r5(hi!.positions)).toEqual([0, 1, 0, 0, 4, 0, 0, 2.5, 1.5]);
    // Triangle (0,1,0)(0,4,0)(0,2.5,1.5): base 3 along y, height 1.5 -> 2.25; the rest 8 - 2.25.
    expect(hi!.area).toBeCloseTo(2.25, 6);
    expect(lo!.area).toBeCloseTo(5.75, 6);
    expect(r5(lo!.positions)).toEqual([0, 0, 0, 0, 1, 0, 0, 2.5, 1.5, 0, 0, 0, 0, 2.5, 1.5, 0, 0, 4]);
  });
  it("vertices on the plane count as the positive side; an untouched side is dropped", () => {
    // x = 0 holds v0 and v2: no crossing, everything on side 1 only.
    const out = clipSoup(soup([0, 0, 0, 2, 0, 0, 0, 2, 0]), [1, 0, 0], 0);
    expect(out.length).toBe(1);
    expect(r5(out[0]!.positions)).toEqual([0, 0, 0, 2, 0, 0, 0, 2, 0]);
    // All on the negative side: one soup, unchanged, area |(1,2,3) x (4,5,7)| / 2 = sqrt(35) / 2.
    const neg = clipSoup(soup([1, 1, 1, 2, 3, 4, 5, 6, 8]), [1, 0, 0], 10);
    expect(neg.length).toBe(1);
    expect(r5(neg[0]!.positions)).toEqual([1, 1, 1, 2, 3, 4, 5, 6, 8]);
    expect(neg[0]!.area).toBeCloseTo(Math.sqrt(35) / 2, 6);
  });
  it("several triangles: each clipped on its own, areas add", () => {
    // Two unit right triangles at x 0..1 and 4..5; plane x = 4.5 cuts only the second.
    const [lo, hi] = clipSoup(soup([0, 0, 0, 1, 0, 0, 0, 1, 0, 4, 0, 0, 5, 0, 0, 4, 1, 0]), [1, 0, 0], 4.5);
    // Second triangle: crossings (4.5,0) and (4.5,0.5); hi is (4.5,0)(5,0)(4.5,0.5), area 0.125.
    expect(r5(hi!.positions)).toEqual([4.5, 0, 0, 5, 0, 0, 4.5, 0.5, 0]);
    expect(hi!.area).toBeCloseTo(0.125, 6);
    expect(lo!.area).toBeCloseTo(0.5 + 0.375, 6);
    expect(lo!.positions.length).toBe(27);
  });
});

describe("clipSplit", () => {
  const tri = new Float32Array([0, 0, 0, 4, 0, 0, 0, 4, 0]);
  const idx = Uint32Array.from([0, 1, 2]);
  const reg = (name: string, min: number[], max: number[]) => ({
    name,
    min: min as [number, number, number],
    max: max as [number, number, number],
  });
  it("x <= 2 / x >= 2 halves, an empty region skipped (materials count only emitted parts)", () => {
    const plan: SplitPlan = {
      regions: [reg("A", [-I, -I, -I], [2, I, I]), reg("B", [2, -I, -I], [I, I, I]), reg("C", [10, -I, -I], [I, I, I])],
      parts: [
        { name: "a", regions: ["A"] },
        { name: "c", regions: ["C"] },
        { name: "b", regions: ["B"] },
        { name: "ab", regions: ["A", "B"] },
      ],
    };
    const s = clipSplit(tri, idx, plan);
    expect(names(s)).toEqual(["a", "b", "ab"]);
    expect(colours(s)).toEqual(["color_1", "color_2", "color_3"]);
    // x <= 2: v0, (2,0), (2,2), v2 (crossings at f = 1/2), fanned from v0.
    const a = [0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 0, 0, 2, 2, 0, 0, 4, 0];
    // x >= 2: (2,0), v1, (2,2).
    const b = [2, 0, 0, 4, 0, 0, 2, 2, 0];
    expect(r5(s.parts[0]!.positions)).toEqual(a);
    expect(Array.from(s.parts[0]!.indices)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(r5(s.parts[1]!.positions)).toEqual(b);
    expect(r5(s.parts[2]!.positions)).toEqual([...a, ...b]);
    expect(Array.from(s.parts[2]!.indices)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // Flat in z = 0, winding counter-clockwise: normals +z.
    expect(r5(s.parts[1]!.normals!)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1]);
  });
  it("two planes in turn: x >= 1 then y >= 1 leave (3,1)(1,3)(1,1)", () => {
    // x >= 1: (1,0) at f = 1/4, v1, (1,3) at f = 3/4; then y >= 1: (3,1) at f = 1/3, (1,3), (1,1) at f = 2/3.
    const s = clipSplit(tri, idx, { regions: [reg("R", [1, 1, -I], [I, I, I])], parts: [{ name: "r", regions: ["R"] }] });
    expect(r5(s.parts[0]!.positions)).toEqual([3, 1, 0, 1, 3, 0, 1, 1, 0]);
  });
  it("a bounded box region clips on all its finite faces (x in [1,3], y in [0.5, 1], z in [-1, 1])", () => {
    // The triangle's part in 1 <= x <= 3, 0.5 <= y <= 1 is the rectangle [1,3] x [0.5,1] (x + y <= 4 holds): area 1.
    const s = clipSplit(tri, idx, { regions: [reg("R", [1, 0.5, -1], [3, 1, 1])], parts: [{ name: "r", regions: ["R"] }] });
    const p = s.parts[0]!.positions;
    expect(triArea(p)).toBeCloseTo(1, 5);
    const b = meshBounds(p);
    expect(r5([...b.min, ...b.max])).toEqual([1, 0.5, 0, 3, 1, 0]);
  });
  it("a vertex on the plane is kept (dk >= 0): a triangle touching x = 2 gives two degenerate triangles", () => {
    // (2,0)(4,0)(2,2) against x <= 2: v0 kept, crossing at f = 0 -> v0 again, crossing on v1->v2 at f = 1 -> v2, v2 kept.
    const s = clipSplit(new Float32Array([2, 0, 0, 4, 0, 0, 2, 2, 0]), idx, {
      regions: [reg("A", [-I, -I, -I], [2, I, I])],
      parts: [{ name: "a", regions: ["A"] }],
    });
    expect(r5(s.parts[0]!.positions)).toEqual([2, 0, 0, 2, 0, 0, 2, 2, 0, 2, 0, 0, 2, 2, 0, 2, 2, 0]);
  });
  it("a triangle wholly outside gives no part", () => {
    const s = clipSplit(tri, idx, { regions: [reg("A", [-I, 5, -I], [I, I, I])], parts: [{ name: "a", regions: ["A"] }] });
    expect(s.parts).toEqual([]);
  });
});

describe("buildSplitScene on open input (triangle soups)", () => {
  const job = { model: "general" as const, part: "a" as const, joint: "none" as const, merge: true };
  // C: area 0.5 at x 120; A: area 8 at x 0; B: area 50 at x 100 (C's nearest). Total 58.5.
  const C = [120, 0, 0, 121, 0, 0, 120, 1, 0],
    A = [0, 0, 0, 4, 0, 0, 0, 4, 0],
    B = [100, 0, 0, 110, 0, 0, 100, 10, 0];
  it("no triangles -> InputContentError", async () => {
    await expect(buildSplitScene({ parts: [] }, { ...job, level: "low" })).rejects.toThrow(InputContentError);
    await expect(buildSplitScene(soupScene([0, 0, 0, 0, 0, 0, 1, 0, 0]), { ...job, level: "low" })).rejects.toThrow(
      "the mesh has no triangles",
    );
  });
  it("low: the speck (0.5 < 0.015 * 58.5 = 0.8775) joins its nearest piece; parts sorted by area", async () => {
    // Speck last; the next test lists it first.
    const s = await buildSplitScene(soupScene(A, B, C), { ...job, level: "low" });
    expect(names(s)).toEqual(["part_1", "part_2"]);
    expect(colours(s)).toEqual(["color_1", "color_2"]);
    expect(r5(s.parts[0]!.positions)).toEqual([...B, ...C]);
    expect(Array.from(s.parts[0]!.indices)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(r5(s.parts[1]!.positions)).toEqual(A);
  });
  // Found by these tests: with the speck listed before a big piece, the big piece was no longer
  // recognised once the speck was joined into it (big[best] is replaced), and was joined again
  // into its nearest piece: part_1 came out as B, C, B.
  it("a speck listed before its big piece is absorbed once", async () => {
    const s = await buildSplitScene(soupScene(C, A, B), { ...job, level: "low" });
    expect(r5(s.parts[0]!.positions)).toEqual([...B, ...C]);
  });
  it("medium: the speck share is 0.0075 * 58.5 = 0.43875 < 0.5, so it stays a part", async () => {
    const s = await buildSplitScene(soupScene(C, A, B), { ...job, level: "medium" });
    expect(s.parts.map((p) => r5(p.positions))).toEqual([B, A, C]);
  });
  it("triangles sharing a vertex are one piece (union-find on the welded mesh)", async () => {
    // A and a triangle sharing A's vertex (4,0,0): one piece of area 8 + 8 = 16; B alone (50).
    const A2 = [4, 0, 0, 8, 0, 0, 4, 4, 0];
    const s = await buildSplitScene(soupScene(A, B, A2), { ...job, level: "low" });
    expect(s.parts.map((p) => triArea(p.positions))).toEqual([expect.closeTo(50, 5), expect.closeTo(16, 5)]);
    expect(r5(s.parts[1]!.positions)).toEqual([...A, ...A2]);
  });
  it("character: the fixed box layout, clipped (part f: head above y = 8.5 of a 0..10 triangle)", async () => {
    const s = await buildSplitScene(soupScene([0, 0, 0, 6, 0, 0, 0, 10, 0]), { ...job, model: "character", part: "f", level: "low" });
    expect(names(s)).toEqual(["head", "body"]);
    // Head: y >= 10 - 0.15 * 10; crossings (0.9, 8.5) at f = 0.85 and (0, 8.5) at f = 0.15.
    expect(r5(s.parts[0]!.positions)).toEqual([0.9, 8.5, 0, 0, 10, 0, 0, 8.5, 0]);
    // Body: the rest of the area 30 minus 0.5 * 0.9 * 1.5.
    expect(triArea(s.parts[1]!.positions)).toBeCloseTo(30 - 0.675, 4);
  });
});

describe("buildSplitScene general on closed boxes", () => {
  // A: 20 x 10 x 10 (2000), B: 2 x 2 x 2 at x 30..32 (8); total 2008.
  const model = () => sceneOfManifold(union([cube([0, 0, 0], [20, 10, 10]), cube([30, 0, 0], [32, 2, 2])]));
  const job = { model: "general" as const, part: "a" as const, joint: "none" as const, merge: true };
  it("low: no neck, 2 pieces = minParts; B (8 < 0.015 * 2008) is unioned into A", async () => {
    const s = await buildSplitScene(model(), { ...job, level: "low" });
    expect(names(s)).toEqual(["part_1"]);
    expect(vol(s.parts[0]!)).toBeCloseTo(2008, 3);
  });
  it("medium: A halved at x = 10 (minParts 3); B (8 < 15.06) joins the nearer half x 10..20", async () => {
    const s = await buildSplitScene(model(), { ...job, level: "medium" });
    expect(names(s)).toEqual(["part_1", "part_2"]);
    expect(s.parts.map(vol)).toEqual([expect.closeTo(1008, 3), expect.closeTo(1000, 3)]);
    const b = meshBounds(s.parts[0]!.positions);
    expect(r5([b.min[0], b.max[0]])).toEqual([10, 32]);
  });
  it("high: halved twice (minParts 4); B (8 >= 7.53) stays; sorted by volume", async () => {
    const s = await buildSplitScene(model(), { ...job, level: "high" });
    expect(s.parts.map(vol)).toEqual([expect.closeTo(1000, 3), expect.closeTo(500, 3), expect.closeTo(500, 3), expect.closeTo(8, 3)]);
    expect(colours(s)).toEqual(["color_1", "color_2", "color_3", "color_4"]);
  });
});

describe("character split of closed solids", () => {
  const job = { model: "character" as const, joint: "none" as const, merge: true, level: "low" as const };
  /** 60 x 100 x 20 box: no landmark is found (convex: no neck; no crotch, no arms). */
  const slab = () => cube([-30, 0, -10], [30, 100, 10]);
  /**
   * Blocky figure (z in [-5, 5]): legs x in +-[2, 10], y 0..40; torso x +-10, y 40..80; neck x +-3,
   * y 80..85; head x +-8, y 85..100; arms x in +-[14, 20], y 35..78 (separate, hanging).
   */
  const blocky = () =>
    union([
      cube([-10, 0, -5], [-2, 40, 5]),
      cube([2, 0, -5], [10, 40, 5]),
      cube([-10, 40, -5], [10, 80, 5]),
      cube([-3, 80, -5], [3, 85, 5]),
      cube([-8, 85, -5], [8, 100, 5]),
      cube([14, 35, -5], [20, 78, 5]),
      cube([-20, 35, -5], [-14, 78, 5]),
    ]);
  const carved = (m: Manifold) => {
    const r = carveCharacter(wasm, m, arena);
    const labels = Object.fromEntries([...r.labels].map(([l, x]) => [l, x.volume()]));
    const box = (l: string) => {
      const b = r.labels.get(l as "head")!.boundingBox();
      return r5([...b.min, ...b.max]);
    };
    return { r, labels, box };
  };

  it("the slab (convex): no landmark found, so no cut: one torso piece", () => {
    const { r, labels } = carved(slab());
    // The fixed fractions are still reported (neck 85, crotch 42.5, arm cuts at the thirds), unused.
    expect(r.landmarks).toEqual({
      xc: 0,
      crotch: 42.5,
      legGap: 0,
      neck: 85,
      leftCut: 10,
      rightCut: -10,
      fallback: ["crotch", "neck", "left_arm", "right_arm"],
    });
    expect(labels).toEqual({ torso: expect.closeTo(120000, 6) });
    expect(r.cuts).toEqual([]);
  });

  it("the blocky figure: found landmarks, arm pieces by side, legs by their own side (no leg cut)", () => {
    const { r, labels, box } = carved(blocky());
    // Neck: the middle (index 105) of the neck run over 128 slices: (105 + 0.5) * 100 / 128 = 82.421875.
    // Crotch: 7 bisections between slices 50 and 51 (39.453125, 40.234375) around y = 40: 39.996337890625.
    // Arm cuts through the gap: (torso edge 10 + arm inner 14) / 2 = 12.
    const crotch = 39.996337890625,
      neck = 82.421875;
    expect(r.landmarks).toEqual({ xc: 0, crotch, legGap: 0, neck, leftCut: 12, rightCut: -12, fallback: [] });
    expect(labels).toEqual({
      // Head 16*15*10 plus the neck above the cut 6*(85 - neck)*10.
      head: expect.closeTo(2400 + 60 * (85 - neck), 6),
      // Torso 20*40*10, the neck below the cut, the two leg tops above the crotch 2*8*(40 - crotch)*10.
      torso: expect.closeTo(8000 + 60 * (neck - 80) + 160 * (40 - crotch), 6),
      // Whole arms (centre y 56.5 above the crotch): 6*43*10.
      left_arm: expect.closeTo(2580, 6),
      right_arm: expect.closeTo(2580, 6),
      left_leg: expect.closeTo(80 * crotch, 6),
      right_leg: expect.closeTo(80 * crotch, 6),
    });
    expect(box("left_arm")).toEqual([14, 35, -5, 20, 78, 5]);
    expect(box("right_arm")).toEqual([-20, 35, -5, -14, 78, 5]);
    expect(box("left_leg")).toEqual(r5([2, 0, -5, 10, crotch, 5]));
    expect(box("right_leg")).toEqual(r5([-10, 0, -5, -2, crotch, 5]));
    expect(box("head")).toEqual(r5([-8, neck, -5, 8, 100, 5]));
    expect(r.cuts.map((c) => `${c.parent}>${c.child}`)).toEqual([
      "torso>head",
      "torso>left_arm",
      "torso>right_arm",
      "torso>left_leg",
      "torso>right_leg",
    ]);
    expect(r.cuts[0]!.face).toEqual({ axis: 1, offset: neck, childSide: 1, rect: [-I, I, -12, 12] });
    expect(r.cuts[3]!.face).toEqual({ axis: 1, offset: crotch, childSide: -1, rect: [-I, I, 0, 12] });
  });

  it("pieces above the neck: the largest over the centre is the head, the others arms by side", () => {
    // The blocky figure plus floating posts x +-[24, 28], y 101..110, z +-2 (144 each) and a cap
    // x 0..2, y 101..103, z +-1 (8) over the head.
    const m = union([blocky(), cube([24, 101, -2], [28, 110, 2]), cube([-28, 101, -2], [-24, 110, 2]), cube([0, 101, -1], [2, 103, 1])]);
    const { r, labels } = carved(m);
    const { neck, fallback } = r.landmarks;
    expect(fallback).toEqual([]);
    expect(neck).toBeGreaterThan(80);
    expect(neck).toBeLessThan(85);
    // The head is the head box with the neck above the cut; the cap (centre x 1 > xc) joins the left arm.
    expect(labels.head).toBeCloseTo(2400 + 60 * (85 - neck), 6);
    const pieces = (l: "left_arm" | "right_arm") =>
      r.labels
        .get(l)!
        .decompose()
        .map((x) => arena.keep(x).volume())
        .sort((a, b) => a - b);
    expect(pieces("left_arm")).toEqual([expect.closeTo(8, 6), expect.closeTo(144, 6), expect.closeTo(2580, 6)]);
    expect(pieces("right_arm")).toEqual([expect.closeTo(144, 6), expect.closeTo(2580, 6)]);
  });

  it("a bust of blocks (the blocky figure above y = 50): no crotch, so no legs; arms by side", () => {
    // Torso y 50..80, arms y 50..78 beside it: everything beside the torso is arm, nothing is leg.
    const bustBlocks = arena.keep(blocky().trimByPlane([0, 1, 0], 50));
    const { r, labels } = carved(bustBlocks);
    const { neck, fallback } = r.landmarks;
    expect(fallback).toEqual(["crotch"]);
    expect(labels).toEqual({
      head: expect.closeTo(2400 + 60 * (85 - neck), 6),
      torso: expect.closeTo(6000 + 60 * (neck - 80), 6),
      left_arm: expect.closeTo(1680, 6),
      right_arm: expect.closeTo(1680, 6),
    });
    expect(r.cuts.map((c) => `${c.parent}>${c.child}`)).toEqual(["torso>head", "torso>left_arm", "torso>right_arm"]);
  });

  it("legs joined below the crotch (a base plate): cut apart at the leg gap, with a joint cut between them", () => {
    // The blocky figure on a plate x +-10, y -2..0, z +-5 (400): the legs and the plate are one
    // piece below the crotch, halved at the gap x = 0.
    const { r, labels } = carved(union([blocky(), cube([-10, -2, -5], [10, 0, 5])]));
    const { crotch, legGap, fallback } = r.landmarks;
    expect([legGap, fallback]).toEqual([0, []]);
    expect(crotch).toBeGreaterThan(39);
    expect(crotch).toBeLessThanOrEqual(40);
    expect(labels.left_leg).toBeCloseTo(80 * crotch + 200, 6);
    expect(labels.right_leg).toBeCloseTo(80 * crotch + 200, 6);
    expect(r.cuts.at(-1)).toEqual({
      parent: "right_leg",
      child: "left_leg",
      face: { axis: 0, offset: 0, childSide: 1, rect: [-I, crotch, -I, I] },
    });
    expect(r.cuts.length).toBe(6);
  });

  it("legs wider than the arm cuts: what lies beside the torso below the crotch is leg", () => {
    // Legs x +-[2, 16] (14 wide), arms x +-[18, 24]: the arm cuts at +-14 (torso edge 10, arm 18)
    // cut the legs' outer 2 mm off, which stay leg (their middle is under the crotch), tops and all:
    // 14 x 10 x crotch below the crotch, and 2 x 10 x (40 - crotch) beyond the cut above it.
    const m = union([
      cube([-16, 0, -5], [-2, 40, 5]),
      cube([2, 0, -5], [16, 40, 5]),
      cube([-10, 40, -5], [10, 80, 5]),
      cube([-3, 80, -5], [3, 85, 5]),
      cube([-8, 85, -5], [8, 100, 5]),
      cube([18, 35, -5], [24, 78, 5]),
      cube([-24, 35, -5], [-18, 78, 5]),
    ]);
    const { r, labels } = carved(m);
    const { crotch, leftCut, rightCut, fallback } = r.landmarks;
    expect([leftCut, rightCut, fallback]).toEqual([14, -14, []]);
    expect(labels.left_arm).toBeCloseTo(2580, 6);
    expect(labels.right_arm).toBeCloseTo(2580, 6);
    expect(labels.left_leg).toBeCloseTo(140 * crotch + 20 * (40 - crotch), 6);
    expect(labels.right_leg).toBeCloseTo(140 * crotch + 20 * (40 - crotch), 6);
  });

  it("one arm: the other side is no part, its width stays in the torso", () => {
    // The blocky figure without its right arm (x -20..-14), legs 8 apart: the one arm moves the
    // body centre (xc) about 2.2 to the left, and the gap between the legs must still hold it.
    const m = union([
      cube([-10, 0, -5], [-4, 40, 5]),
      cube([4, 0, -5], [10, 40, 5]),
      cube([-10, 40, -5], [10, 80, 5]),
      cube([-3, 80, -5], [3, 85, 5]),
      cube([-8, 85, -5], [8, 100, 5]),
      cube([14, 35, -5], [20, 78, 5]),
    ]);
    const { r, labels } = carved(m);
    expect(r.landmarks.fallback).toEqual(["right_arm"]);
    expect(Object.keys(labels).sort()).toEqual(["head", "left_arm", "left_leg", "right_leg", "torso"]);
    expect(labels.left_arm).toBeCloseTo(2580, 6);
    expect(r.cuts.map((c) => c.child)).toEqual(["head", "left_arm", "left_leg", "right_leg"]);
  });

  describe("the blocky figure's parts", () => {
    // Label volumes of the blocky figure (see its test above).
    const crotch = 39.996337890625,
      neck = 82.421875;
    const h = 2400 + 60 * (85 - neck),
      t = 8000 + 60 * (neck - 80) + 160 * (40 - crotch),
      arm = 2580,
      leg = 80 * crotch;
    it.each([
      ["a", ["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"], [h, t, arm, arm, leg, leg]],
      ["b", ["head", "torso", "left_arm", "right_arm", "legs"], [h, t, arm, arm, 2 * leg]],
      ["c", ["head_and_torso", "left_arm", "right_arm", "legs"], [h + t, arm, arm, 2 * leg]],
      ["d", ["head", "body", "left_leg", "right_leg"], [h, t + 2 * arm, leg, leg]],
      ["e", ["head", "body", "legs"], [h, t + 2 * arm, 2 * leg]],
      ["f", ["head", "body"], [h, t + 2 * arm + 2 * leg]],
    ] as const)("part %s: groups unioned in GROUPS order, volumes summed", async (p, want, vols) => {
      const s = await buildSplitScene(sceneOfManifold(blocky()), { ...job, part: p });
      expect(names(s)).toEqual(want);
      expect(s.parts.map(vol)).toEqual(vols.map((v) => expect.closeTo(v, 3)));
      expect(colours(s)).toEqual(want.map((_, i) => `color_${i + 1}`));
    });

    // Joints go on the cuts between different parts that the child meets: the neck and each leg
    // top; the hanging arms do not reach their cut planes (x = +-12), so they get none.
    it.each([
      ["a", 3],
      ["b", 3],
      ["c", 2],
      ["d", 3],
      ["e", 3],
      ["f", 1],
    ] as const)("part %s, merge off: one joint per cut between different parts (%i)", async (p, n) => {
      const s = await buildSplitScene(sceneOfManifold(blocky()), { ...job, part: p, joint: "pin", merge: false });
      const k = GROUPS[p].length;
      expect(names(s)).toEqual([...GROUPS[p].map(groupName), ...Array.from({ length: n }, (_, i) => `joint_${i + 1}`)]);
      expect(colours(s)).toEqual(Array.from({ length: k + n }, (_, i) => `color_${i + 1}`));
    });

    it("the slab, any part and joints: one torso, no joint", async () => {
      for (const p of ["a", "c", "f"] as const) {
        const s = await buildSplitScene(sceneOfManifold(slab()), { ...job, part: p, joint: "pin", merge: false });
        expect(names(s)).toEqual(["torso"]);
        expect(s.parts.map(vol)).toEqual([expect.closeTo(120000, 3)]);
      }
    });
  });

  describe("ball joint on the blocky figure's neck (part f)", () => {
    // The head's section just above the neck cut, inside x in [-12, 12]: the 6 x 10 neck, 60, so
    // r = 0.3 sqrt(60 / pi); the key is sphere(r, 32), the cutter sphere(r + 0.2, 32), both
    // centred on the cut plane.
    const neck = 82.421875;
    const head = 2400 + 60 * (85 - neck),
      body = blocky().volume() - head;
    const r = 0.3 * Math.sqrt(60 / Math.PI);
    const K = () => arena.keep(wasm.Manifold.sphere(r, 32)).volume(),
      C = () => arena.keep(wasm.Manifold.sphere(r + 0.2, 32)).volume();
    it("merged: the body gains the key's upper half, the head loses the cutter's", async () => {
      const s = await buildSplitScene(sceneOfManifold(blocky()), { ...job, part: "f", joint: "ball", merge: true });
      expect(names(s)).toEqual(["head", "body"]);
      expect(s.parts.map(vol)).toEqual([expect.closeTo(head - C() / 2, 2), expect.closeTo(body + K() / 2, 2)]);
    });
    it("separate: the key is joint_1; the cutter's halves leave both the head and the body", async () => {
      const s = await buildSplitScene(sceneOfManifold(blocky()), { ...job, part: "f", joint: "ball", merge: false });
      expect(s.parts.map(vol)).toEqual([expect.closeTo(head - C() / 2, 2), expect.closeTo(body - C() / 2, 2), expect.closeTo(K(), 2)]);
      const b = meshBounds(s.parts[2]!.positions);
      expect(r5([(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2])).toEqual(r5([0, neck, 0]));
    });
  });
});
