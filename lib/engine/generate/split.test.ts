import type { Manifold } from "manifold-3d";
import { afterAll, describe, expect, it } from "vitest";
import type { MeshPart, Scene } from "@/lib/engine/mesh/types";
import { BUST, FIGURE, HUMANOID, NECKED, bust, humanoid, neckedModel, roundFigure, sceneOfManifold } from "./humanoid.test-helpers";
import { loadView, sceneFromViews } from "./image-to-3d";
import { CLEARANCE_MM } from "./joints";
import { Arena, getManifold } from "./manifold";
import { checkManifold, meshBounds, sceneVolume, signedVolume } from "./mesh-ops";
import { buildSplitScene } from "./split";
import { box, fixture, sceneOf, uvSphere } from "./generate.test-helpers";

const wasm = await getManifold();
const arena = new Arena();
afterAll(() => arena.free());

const hanging = sceneOfManifold(humanoid(wasm, arena, "hanging"));
const tpose = sceneOfManifold(humanoid(wasm, arena, "tpose"));
const base = { model: "character" as const, joint: "none" as const, merge: true, level: "medium" as const };
const H = HUMANOID;

function expectSolidParts(s: Scene, n?: number) {
  if (n !== undefined) expect(s.parts.length).toBe(n);
  for (const p of s.parts) {
    expect(p.indices.length).toBeGreaterThan(0);
    const r = checkManifold(p.indices);
    expect(r.closed && r.oriented, p.name).toBe(true);
    expect(signedVolume(p.positions, p.indices), p.name).toBeGreaterThan(0);
  }
}
const part = (s: Scene, name: string): MeshPart => {
  const p = s.parts.find((q) => q.name === name);
  if (!p) throw new Error(`no part ${name} in ${s.parts.map((q) => q.name).join(", ")}`);
  return p;
};
const bounds = (p: MeshPart) => meshBounds(p.positions);
const centre = (p: MeshPart) => {
  const b = bounds(p);
  return [0, 1, 2].map((a) => (b.min[a]! + b.max[a]!) / 2);
};
const vol = (s: Scene, name: string) => {
  const p = part(s, name);
  return signedVolume(p.positions, p.indices);
};
const solid = (p: MeshPart): Manifold =>
  arena.keep(new wasm.Manifold(new wasm.Mesh({ numProp: 3, vertProperties: p.positions, triVerts: p.indices })));

describe("character split finds the limbs of a primitive humanoid", () => {
  it.each([
    ["hanging", hanging],
    ["tpose", tpose],
  ] as const)("%s arms: each part matches its known limb", async (pose, model) => {
    const s = await buildSplitScene(model, { ...base, part: "a" });
    expectSolidParts(s, 6);
    expect(s.parts.map((p) => p.name).sort()).toEqual(["head", "left_arm", "left_leg", "right_arm", "right_leg", "torso"]);
    expect(sceneVolume(s) / sceneVolume(model)).toBeCloseTo(1, 2);
    // Head: cut in the visible neck (between the torso top and the head sphere).
    const head = bounds(part(s, "head"));
    expect(head.min[1]).toBeGreaterThan(H.torso.y1);
    expect(head.min[1]).toBeLessThan(H.head.y - H.head.r + 1);
    expect(head.max[1]).toBeCloseTo(H.head.y + H.head.r, 0);
    expect(Math.max(-head.min[0], head.max[0])).toBeLessThan(H.head.r + 0.5);
    // Torso: from the crotch to the neck, hardly wider than the box.
    const torso = bounds(part(s, "torso"));
    expect(torso.min[1]).toBeCloseTo(H.crotch, 0);
    expect(torso.max[1]).toBeCloseTo(head.min[1], 3);
    expect(Math.max(-torso.min[0], torso.max[0])).toBeLessThan(H.torso.x + 2.5);
    // Legs: below the crotch, one each side, exactly the leg cylinders.
    for (const [name, sign] of [
      ["left_leg", 1],
      ["right_leg", -1],
    ] as const) {
      const leg = bounds(part(s, name));
      expect(leg.max[1]).toBeCloseTo(H.crotch, 0);
      expect(leg.min[1]).toBeCloseTo(0, 3);
      expect(centre(part(s, name))[0]! * sign).toBeCloseTo(H.legX, 0);
      expect(leg.max[0] - leg.min[0]).toBeCloseTo(2 * H.legR, 0);
    }
    // Arms: beside the torso, the whole limb including the hand below the crotch.
    for (const [name, sign] of [
      ["left_arm", 1],
      ["right_arm", -1],
    ] as const) {
      const arm = bounds(part(s, name));
      const inner = sign > 0 ? arm.min[0] : -arm.max[0],
        outer = sign > 0 ? arm.max[0] : -arm.min[0];
      expect(inner).toBeGreaterThanOrEqual(H.torso.x);
      if (pose === "hanging") {
        expect(inner).toBeLessThanOrEqual(H.armX - H.armR); // through the gap
        expect(outer).toBeCloseTo(H.armX + H.armR, 1);
        expect(arm.min[1]).toBeCloseTo(H.armY0, 3);
      } else {
        expect(inner).toBeLessThan(H.torso.x + 3);
        expect(outer).toBeCloseTo(H.tArmX1, 1);
        expect(arm.min[1]).toBeCloseTo(H.tArmY - H.tArmR, 1);
        expect(arm.max[1]).toBeCloseTo(H.tArmY + H.tArmR, 1);
      }
    }
  });

  it.each([
    ["a", 6],
    ["b", 5],
    ["c", 4],
    ["d", 4],
    ["e", 3],
    ["f", 2],
  ] as const)("part %s -> %i closed named parts, volume kept", async (p, n) => {
    const s = await buildSplitScene(hanging, { ...base, part: p });
    expectSolidParts(s, n);
    expect(sceneVolume(s) / sceneVolume(hanging)).toBeCloseTo(1, 2);
    const names = s.parts.map((q) => q.name);
    expect(new Set(names).size).toBe(n);
    if (p === "c") expect(names).toContain("head_and_torso");
    if (p === "e") expect(names.sort()).toEqual(["body", "head", "legs"]);
    if (p === "d") expect(bounds(part(s, "body")).max[0]).toBeCloseTo(H.armX + H.armR, 1);
  });

  it.each(["ball", "pin", "dovetail"] as const)("%s joints: connector on the parent, socket with clearance in the child", async (joint) => {
    const plain = await buildSplitScene(hanging, { ...base, part: "f" });
    const s = await buildSplitScene(hanging, { ...base, part: "f", joint });
    expectSolidParts(s, 2);
    const gained = vol(s, "body") - vol(plain, "body"),
      lost = vol(plain, "head") - vol(s, "head");
    expect(gained).toBeGreaterThan(1);
    expect(lost).toBeGreaterThan(gained);
    if (joint !== "dovetail") expect(lost).toBeLessThan(gained * 2);
    // The peg sits in the socket without touching: the parts do not overlap.
    const overlap = arena.keep(solid(part(s, "body")).intersect(solid(part(s, "head"))));
    expect(overlap.volume()).toBeLessThan(1e-3);
  });

  it("merge=no: connectors are separate closed parts, clear of both sides by the clearance", async () => {
    const s = await buildSplitScene(hanging, { ...base, part: "e", joint: "ball", merge: false });
    expectSolidParts(s);
    const joints = s.parts.filter((p) => p.name.startsWith("joint_"));
    expect(s.parts.length - joints.length).toBe(3);
    expect(joints.length).toBe(3); // neck + one per leg
    for (const j of joints) {
      const key = solid(j);
      let nearest = Infinity;
      for (const p of s.parts.filter((q) => !q.name.startsWith("joint_"))) nearest = Math.min(nearest, key.minGap(solid(p), 1));
      expect(nearest).toBeGreaterThan(CLEARANCE_MM * 0.8);
      expect(nearest).toBeLessThan(CLEARANCE_MM * 1.2);
    }
  });

  it("splits the service's own image-to-3D result (robot): a big head over a small body", async () => {
    const v = await loadView("front", fixture("robot.png"), 1024, true);
    const model = await sceneFromViews([v], { cells: 96, face: 60_000, textured: false, pbr: false, shading: 0 });
    const s = await buildSplitScene(model, { ...base, part: "a" });
    expectSolidParts(s, 6);
    const head = bounds(part(s, "head")),
      torso = bounds(part(s, "torso"));
    // The robot's neck is at about a third of its height, under the wide head.
    expect(head.min[1]).toBeGreaterThan(25);
    expect(head.min[1]).toBeLessThan(45);
    expect(torso.max[1]).toBeLessThanOrEqual(head.min[1] + 1e-3);
    expect(vol(s, "head")).toBeGreaterThan(vol(s, "torso"));
    expect(centre(part(s, "left_arm"))[0]).toBeGreaterThan(centre(part(s, "torso"))[0]!);
    expect(centre(part(s, "right_arm"))[0]).toBeLessThan(centre(part(s, "torso"))[0]!);
  }, 30_000);
});

// A character split names only the parts the shape has: a landmark that is not in the geometry
// (no legs under a bust, no neck on a convex shape) gives no part, and nothing is named after a
// limb it is not. The figures are unions of boxes, capsules and spheres with known layouts.
describe("character split names only the parts the shape has", () => {
  const bustModel = sceneOfManifold(bust(wasm, arena));
  const figureModel = sceneOfManifold(roundFigure(wasm, arena));
  const B = BUST,
    F = FIGURE;
  const names = (s: Scene) => s.parts.map((p) => p.name);

  it("a bust asked for six parts: head, torso and the two arms, no legs", async () => {
    const s = await buildSplitScene(bustModel, { ...base, part: "a" });
    expectSolidParts(s, 4);
    expect(names(s)).toEqual(["head", "torso", "left_arm", "right_arm"]);
    expect(sceneVolume(s) / sceneVolume(bustModel)).toBeCloseTo(1, 2);
    // Head: above a cut in the neck, the whole sphere.
    const head = bounds(part(s, "head"));
    expect(head.min[1]).toBeGreaterThan(B.chest.y1);
    expect(head.min[1]).toBeLessThan(B.head.y - B.head.r + 1);
    expect(head.max[1]).toBeCloseTo(B.head.y + B.head.r, 0);
    // Torso: the chest from its base to the neck cut, the shoulders' middle with it.
    const torso = bounds(part(s, "torso"));
    expect(torso.min[1]).toBeCloseTo(B.chest.y0, 3);
    expect(torso.max[1]).toBeCloseTo(head.min[1], 3);
    expect(Math.max(-torso.min[0], torso.max[0])).toBeLessThan(B.armX - B.armR);
    // Arms: the hanging upper arms with their shoulder ends, one each side, down to their ends.
    for (const [name, sign] of [
      ["left_arm", 1],
      ["right_arm", -1],
    ] as const) {
      const arm = bounds(part(s, name));
      expect(centre(part(s, name))[0]! * sign).toBeGreaterThan(B.chest.x);
      expect(sign > 0 ? arm.max[0] : -arm.min[0]).toBeCloseTo(B.shoulder.x + B.shoulder.r, 0);
      expect(arm.min[1]).toBeCloseTo(B.armY0 - B.armR, 0);
    }
  });

  it.each([
    ["a", ["head", "torso", "left_arm", "right_arm"]],
    ["b", ["head", "torso", "left_arm", "right_arm"]],
    ["c", ["head_and_torso", "left_arm", "right_arm"]],
    ["d", ["head", "body"]],
    ["e", ["head", "body"]],
    ["f", ["head", "body"]],
  ] as const)("a bust, part %s: %j", async (p, want) => {
    const s = await buildSplitScene(bustModel, { ...base, part: p });
    expectSolidParts(s, want.length);
    expect(names(s)).toEqual(want);
    expect(sceneVolume(s) / sceneVolume(bustModel)).toBeCloseTo(1, 2);
  });

  it("a bust with ball joints: one per cut between parts, none towards legs it does not have", async () => {
    const s = await buildSplitScene(bustModel, { ...base, part: "a", joint: "ball", merge: false });
    expectSolidParts(s);
    expect(names(s)).toEqual(["head", "torso", "left_arm", "right_arm", "joint_1", "joint_2", "joint_3"]);
  });

  it("a full-body figure of capsules asked for six parts gives six, each where its limb is", async () => {
    const s = await buildSplitScene(figureModel, { ...base, part: "a" });
    expectSolidParts(s, 6);
    expect(names(s)).toEqual(["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"]);
    expect(sceneVolume(s) / sceneVolume(figureModel)).toBeCloseTo(1, 2);
    const head = bounds(part(s, "head"));
    expect(head.min[1]).toBeGreaterThan(F.torso.y1);
    expect(head.min[1]).toBeLessThan(F.head.y - F.head.r + 1);
    for (const [side, sign] of [
      ["left", 1],
      ["right", -1],
    ] as const) {
      const leg = bounds(part(s, `${side}_leg`));
      expect(leg.min[1]).toBeCloseTo(0, 3);
      expect(leg.max[1]).toBeCloseTo(F.torso.y0 - F.torso.r, 0);
      expect(sign > 0 ? leg.max[0] : -leg.min[0]).toBeCloseTo(F.legX + F.legR, 0);
      expect(centre(part(s, `${side}_leg`))[0]! * sign).toBeGreaterThan(F.legR);
      const arm = bounds(part(s, `${side}_arm`));
      expect(sign > 0 ? arm.max[0] : -arm.min[0]).toBeCloseTo(F.handX + F.armR, 0);
      expect(arm.min[1]).toBeCloseTo(F.handY - F.armR, 0);
    }
  });

  it.each([
    ["a", ["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"]],
    ["b", ["head", "torso", "left_arm", "right_arm", "legs"]],
    ["c", ["head_and_torso", "left_arm", "right_arm", "legs"]],
    ["d", ["head", "body", "left_leg", "right_leg"]],
    ["e", ["head", "body", "legs"]],
    ["f", ["head", "body"]],
  ] as const)("the full-body figure, part %s: %j", async (p, want) => {
    const s = await buildSplitScene(figureModel, { ...base, part: p });
    expectSolidParts(s, want.length);
    expect(names(s)).toEqual(want);
  });

  it.each(["a", "b", "c", "d", "e", "f"] as const)("a plain box (convex: no neck, no limbs), part %s: one part, the torso", async (p) => {
    const model = sceneOf(box([-30, 0, -10], [30, 100, 10]));
    const s = await buildSplitScene(model, { ...base, part: p, joint: "ball" });
    expectSolidParts(s, 1);
    expect(names(s)).toEqual(["torso"]);
    expect(vol(s, "torso")).toBeCloseTo(60 * 100 * 20, 1);
  });

  it("a convex blob (an ellipsoid) is one part too", async () => {
    const blob = sceneOfManifold(arena.keep(arena.keep(wasm.Manifold.sphere(30, 64)).scale([1, 1.6, 0.8])));
    const s = await buildSplitScene(blob, { ...base, part: "a", joint: "ball" });
    expectSolidParts(s, 1);
    expect(names(s)).toEqual(["torso"]);
  });
});

describe("general split by structure", () => {
  const model = sceneOfManifold(neckedModel(wasm, arena));
  const general = { ...base, model: "general" as const, part: "a" as const };
  /** x positions where chain parts meet (part boundaries inside the chain). */
  const chainCuts = (s: Scene) =>
    s.parts
      .map(bounds)
      .filter((b) => b.min[1] > NECKED.chainY - 20 && b.min[0] > -71)
      .map((b) => b.min[0]);

  it("connected pieces, then cuts at the necks; counts grow low < medium < high", async () => {
    const counts: number[] = [];
    for (const level of ["low", "medium", "high"] as const) {
      const s = await buildSplitScene(model, { ...general, level });
      expectSolidParts(s);
      expect(sceneVolume(s) / sceneVolume(model)).toBeCloseTo(1, 3);
      counts.push(s.parts.length);
      // The cube is never cut; the dumbbell is cut in its bar.
      expect(
        s.parts.some((p) => {
          const b = bounds(p);
          return b.min[0] > 59 && b.max[0] - b.min[0] > 19.9;
        }),
      ).toBe(true);
      const dumbbell = s.parts.map(bounds).filter((b) => Math.abs(b.max[1]) < 16 && b.max[0] < 16 && b.min[0] > -76);
      expect(dumbbell.length).toBe(2);
      const barCut = Math.max(...dumbbell.map((b) => b.min[0]));
      expect(barCut).toBeGreaterThan(NECKED.dumbbellBar[0]);
      expect(barCut).toBeLessThan(NECKED.dumbbellBar[1]);
      // Chain cuts fall inside necks: the strong one always, weaker ones at higher levels.
      const cuts = chainCuts(s);
      const expected = level === "low" ? 1 : level === "medium" ? 2 : 3;
      expect(cuts.length).toBe(expected);
      for (const x of cuts) expect(NECKED.chainNecks.some(([a, b]) => x > a && x < b)).toBe(true);
      expect(cuts.some((x) => x > NECKED.chainNecks[0]![0] && x < NECKED.chainNecks[0]![1])).toBe(true);
    }
    expect(counts[0]).toBeLessThan(counts[1]!);
    expect(counts[1]).toBeLessThan(counts[2]!);
  });

  it("names parts part_1.. with one distinct material each", async () => {
    const s = await buildSplitScene(model, { ...general, level: "high" });
    expect(s.parts.map((p) => p.name)).toEqual(s.parts.map((_, i) => `part_${i + 1}`));
    const colours = new Set(s.parts.map((p) => p.material!.baseColorFactor.join(",")));
    expect(colours.size).toBe(s.parts.length);
  });

  it("a shape without structure is halved across its principal axis (2 / 3 / 4 parts)", async () => {
    const sphere = sceneOf(uvSphere(40, 32, 64));
    for (const [level, n] of [
      ["low", 2],
      ["medium", 3],
      ["high", 4],
    ] as const) {
      const s = await buildSplitScene(sphere, { ...general, level });
      expectSolidParts(s, n);
      expect(sceneVolume(s) / sceneVolume(sphere)).toBeCloseTo(1, 3);
    }
    // A slab is cut across its longest axis only.
    const s = await buildSplitScene(sceneOf(box([0, 0, 0], [100, 10, 40])), { ...general, level: "low" });
    expectSolidParts(s, 2);
    for (const p of s.parts) {
      const b = bounds(p);
      expect([b.max[1] - b.min[1], b.max[2] - b.min[2], b.max[0] - b.min[0]]).toEqual([
        expect.closeTo(10, 4),
        expect.closeTo(40, 4),
        expect.closeTo(50, 2),
      ]);
    }
  });

  it("open / non-manifold input: connected pieces and clipped halves, every triangle kept", async () => {
    const open = box([0, 0, 0], [10, 10, 10]);
    open.indices = open.indices.slice(0, 30); // one face removed
    const other = box([30, 0, 0], [40, 10, 10]);
    other.indices = other.indices.slice(6); // another open box
    const area = (p: MeshPart) => {
      let a = 0;
      const q = p.positions;
      for (let t = 0; t < p.indices.length; t += 3) {
        const [i, j, k] = [p.indices[t]! * 3, p.indices[t + 1]! * 3, p.indices[t + 2]! * 3];
        const u = [0, 1, 2].map((c) => q[j + c]! - q[i + c]!),
          v = [0, 1, 2].map((c) => q[k + c]! - q[i + c]!);
        a += Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!) / 2;
      }
      return a;
    };
    for (const [level, n] of [
      ["low", 2],
      ["high", 4],
    ] as const) {
      const s = await buildSplitScene(sceneOf(open, other), { ...general, level });
      expect(s.parts.length).toBe(n);
      expect(s.parts.reduce((a, p) => a + area(p), 0)).toBeCloseTo(area(open) + area(other), 2);
      // No part spans both boxes.
      for (const p of s.parts) {
        const b = bounds(p);
        expect(b.min[0] < 15 && b.max[0] > 25).toBe(false);
      }
    }
    const c = await buildSplitScene(sceneOf(open), { ...base, part: "a" });
    expect(c.parts.length).toBe(6);
  });
});
