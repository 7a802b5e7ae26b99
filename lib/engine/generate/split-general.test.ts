import type { Manifold } from "manifold-3d";
import { afterAll, describe, expect, it } from "vitest";
import type { MeshPart, Scene } from "@/lib/engine/mesh/types";
import { sceneOfManifold } from "./humanoid.test-helpers";
import { Arena, getManifold } from "./manifold";
import { checkManifold, meshBounds, sceneVolume, signedVolume } from "./mesh-ops";
import { buildSplitScene } from "./split";
import { LEVELS, bestCreaseCut, creaseEdges } from "./split-general";

const wasm = await getManifold();
const arena = new Arena();
afterAll(() => arena.free());
const { Manifold: M } = wasm;
const k = <T extends { delete(): void }>(x: T) => arena.keep(x);

/** An axis-aligned box of size s centred on the Y axis, from y0 up. */
const block = (sx: number, sy: number, sz: number, y0: number) => k(k(M.cube([sx, sy, sz])).translate([-sx / 2, y0, -sz / 2]));
/** A vertical cylinder on the Y axis. */
const vcyl = (r: number, y0: number, y1: number, segs = 48) =>
  k(k(k(M.cylinder(y1 - y0, r, r, segs)).rotate([-90, 0, 0])).translate([0, y0, 0]));
const union = (ms: Manifold[]) => k(M.union(ms));

/** A 20 mm cube standing on a 40 x 20 x 40 box: the step is at y = 20 of 40. */
const boxOnBox = sceneOfManifold(union([block(40, 20, 40, 0), block(20, 20, 20, 20)]));
/** Stem r 4 (y 0..32) into a flattened sphere cap (r 15, half height 7.5, centre y 36). */
const MUSHROOM = { stemR: 4, capR: 15, capH: 7.5, capY: 36, junction: 36 - 7.5 * Math.sqrt(1 - (4 / 15) ** 2) };
const mushroom = sceneOfManifold(
  union([
    vcyl(MUSHROOM.stemR, 0, 32),
    k(k(k(M.sphere(MUSHROOM.capR, 64)).scale([1, MUSHROOM.capH / MUSHROOM.capR, 1])).translate([0, MUSHROOM.capY, 0])),
  ]),
);
/** Four stacked 15 mm blocks whose steps grow weaker upwards: width 60, 30, 20, 17. */
const STACK = { widths: [60, 30, 20, 17], h: 15 };
const stack = sceneOfManifold(union(STACK.widths.map((w, i) => block(w, STACK.h, w, i * STACK.h))));
/** A table: a 60 x 4 x 40 top on four legs r 3, 30 high. */
const table = sceneOfManifold(
  union([
    block(60, 4, 40, 30),
    ...[
      [-25, -15],
      [25, -15],
      [-25, 15],
      [25, 15],
    ].map(([x, z]) => k(vcyl(3, 0, 31).translate([x!, 0, z!]))),
  ]),
);

const general = { model: "general" as const, part: "a" as const, joint: "none" as const, merge: true };
const bounds = (p: MeshPart) => meshBounds(p.positions);
function surfaceArea(p: MeshPart): number {
  const q = p.positions;
  let a = 0;
  for (let t = 0; t < p.indices.length; t += 3) {
    const [i, j, l] = [p.indices[t]! * 3, p.indices[t + 1]! * 3, p.indices[t + 2]! * 3];
    const u = [0, 1, 2].map((c) => q[j + c]! - q[i + c]!),
      v = [0, 1, 2].map((c) => q[l + c]! - q[i + c]!);
    a += Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!) / 2;
  }
  return a;
}

function expectSolidParts(s: Scene, model: Scene, n?: number) {
  if (n !== undefined) expect(s.parts.length).toBe(n);
  for (const p of s.parts) {
    const r = checkManifold(p.indices);
    expect(r.closed && r.oriented, p.name).toBe(true);
    expect(signedVolume(p.positions, p.indices), p.name).toBeGreaterThan(0);
  }
  expect(Math.abs(sceneVolume(s) / sceneVolume(model) - 1)).toBeLessThan(0.01);
}
const mesh = (s: Scene) => ({ positions: s.parts[0]!.positions, indices: s.parts[0]!.indices });

describe("general split at concave creases", () => {
  it.each(["medium", "high"] as const)("a small box on a big box -> exactly the two boxes (%s), cut at the step", async (level) => {
    const s = await buildSplitScene(boxOnBox, { ...general, level });
    expectSolidParts(s, boxOnBox, 2);
    const [big, small] = s.parts.map(bounds);
    // Largest first: the 40 mm box below the step, the 20 mm cube above it.
    expect(Math.abs(big!.max[1] - 20)).toBeLessThan(0.02 * 40);
    expect(Math.abs(small!.min[1] - 20)).toBeLessThan(0.02 * 40);
    expect(big!.max[0] - big!.min[0]).toBeCloseTo(40, 3);
    expect(small!.max[0] - small!.min[0]).toBeCloseTo(20, 3);
    expect(signedVolume(s.parts[0]!.positions, s.parts[0]!.indices) / (40 * 20 * 40)).toBeCloseTo(1, 3);
    expect(signedVolume(s.parts[1]!.positions, s.parts[1]!.indices) / 20 ** 3).toBeCloseTo(1, 3);
    // No folded zero-thickness sheet left on the cut: the surface areas are the boxes' own.
    expect(surfaceArea(s.parts[0]!) / (2 * 40 * 40 + 4 * 40 * 20)).toBeCloseTo(1, 2);
    expect(surfaceArea(s.parts[1]!) / (6 * 20 * 20)).toBeCloseTo(1, 2);
  });

  it.each(["low", "medium", "high"] as const)("a mushroom -> stem and cap separated at the junction (%s)", async (level) => {
    const s = await buildSplitScene(mushroom, { ...general, level });
    expectSolidParts(s, mushroom, 2);
    const [cap, stem] = s.parts.map(bounds);
    expect(cap!.max[0] - cap!.min[0]).toBeGreaterThan(2 * MUSHROOM.capR - 0.5);
    expect(stem!.max[0] - stem!.min[0]).toBeLessThan(2 * MUSHROOM.stemR * 1.05);
    expect(stem!.min[1]).toBeCloseTo(0, 3);
    const height = MUSHROOM.capY + MUSHROOM.capH;
    expect(Math.abs(stem!.max[1] - MUSHROOM.junction)).toBeLessThan(0.02 * height);
    expect(Math.abs(cap!.min[1] - MUSHROOM.junction)).toBeLessThan(0.02 * height);
  });

  it("graded steps: low < medium < high parts, every cut at a step", async () => {
    const counts: number[] = [];
    for (const level of ["low", "medium", "high"] as const) {
      const s = await buildSplitScene(stack, { ...general, level });
      expectSolidParts(s, stack);
      counts.push(s.parts.length);
      for (const p of s.parts) {
        const b = bounds(p);
        // Every part is a run of whole blocks: its ends are block boundaries.
        for (const y of [b.min[1], b.max[1]]) expect(Math.abs(y / STACK.h - Math.round(y / STACK.h))).toBeLessThan(0.02 * 4);
      }
    }
    // The strong 60 -> 30 step (0.25) at every level, 30 -> 20 (0.44) from medium, 20 -> 17 (0.72) at high.
    expect(counts).toEqual([2, 3, 4]);
  });

  it("a table: the top and each leg become parts (medium)", async () => {
    const s = await buildSplitScene(table, { ...general, level: "medium" });
    expectSolidParts(s, table, 5);
    const top = bounds(s.parts[0]!);
    expect(top.max[0] - top.min[0]).toBeCloseTo(60, 3);
    expect(Math.abs(top.min[1] - 30)).toBeLessThan(0.02 * 34);
    for (const leg of s.parts.slice(1).map(bounds)) {
      expect(leg.max[0] - leg.min[0]).toBeLessThan(6.01);
      expect(Math.abs(leg.max[1] - 30)).toBeLessThan(0.02 * 34);
    }
  });

  it("convex edges are not creases: a box, a sphere and a cylinder have no crease cut", () => {
    for (const m of [block(30, 50, 20, 0), k(M.sphere(20, 64)), vcyl(10, 0, 40)]) {
      const tm = mesh(sceneOfManifold(m));
      expect(creaseEdges(tm).count).toBe(0);
      expect(bestCreaseCut(tm, LEVELS.high)).toBeNull();
    }
    // While the stepped models do have one, with the ring at the step.
    const cut = bestCreaseCut(mesh(boxOnBox), LEVELS.medium);
    expect(cut).not.toBeNull();
    expect(Math.abs(cut!.n[1])).toBeCloseTo(1, 6);
    expect(Math.abs(cut!.t * cut!.n[1] - 20)).toBeLessThan(0.8);
    expect(cut!.score).toBeCloseTo(0.25, 2);
  });

  it("a plain box and a sphere are only halved by volume (no crease cut), 2 / 3 / 4 parts", async () => {
    for (const model of [sceneOfManifold(block(30, 50, 20, 0)), sceneOfManifold(k(M.sphere(20, 64)))]) {
      for (const [level, n] of [
        ["low", 2],
        ["medium", 3],
        ["high", 4],
      ] as const) {
        const s = await buildSplitScene(model, { ...general, level });
        expectSolidParts(s, model, n);
        // Halving by volume: the largest part holds at most half the volume (plus slack).
        const vols = s.parts.map((p) => signedVolume(p.positions, p.indices));
        expect(Math.max(...vols) / sceneVolume(model)).toBeLessThan(0.51);
      }
    }
  });
});
