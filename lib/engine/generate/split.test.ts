import { describe, expect, it } from "vitest";
import type { Scene } from "@/lib/engine/mesh/types";
import { checkManifold, sceneVolume, signedVolume } from "./mesh-ops";
import { buildSplitScene } from "./split";
import { box, sceneOf, uvSphere } from "./testing";

// A blocky "character" 100 mm tall (+Y), facing +Z: head, body, arms, legs as one solid.
const character: Scene = sceneOf(box([-30, 0, -10], [30, 100, 10]));
const base = { model: "character" as const, joint: "none" as const, merge: true, level: "medium" as const };

function expectSolidParts(s: Scene, n: number) {
  expect(s.parts.length).toBe(n);
  for (const p of s.parts) {
    expect(p.indices.length).toBeGreaterThan(0);
    expect(checkManifold(p.indices).closed, p.name).toBe(true);
    expect(signedVolume(p.positions, p.indices), p.name).toBeGreaterThan(0);
  }
}

describe("character split", () => {
  const original = sceneVolume(character);
  it.each([["a", 6], ["b", 5], ["c", 4], ["d", 4], ["e", 3], ["f", 2]] as const)("part %s -> %i closed parts, volume kept", async (part, n) => {
    const s = await buildSplitScene(character, { ...base, part });
    expectSolidParts(s, n);
    expect(sceneVolume(s) / original).toBeCloseTo(1, 4);
  });

  it("names the character's parts", async () => {
    const s = await buildSplitScene(character, { ...base, part: "a" });
    expect(s.parts.map((p) => p.name).sort()).toEqual(["head", "left_arm", "left_leg", "right_arm", "right_leg", "torso"]);
    const head = s.parts.find((p) => p.name === "head")!;
    let minY = Infinity;
    for (let i = 1; i < head.positions.length; i += 3) minY = Math.min(minY, head.positions[i]!);
    expect(minY).toBeCloseTo(85, 3);
  });

  it.each(["ball", "pin", "dovetail"] as const)("%s joints: connectors added to one side, sockets with clearance in the other", async (joint) => {
    const plain = await buildSplitScene(character, { ...base, part: "f" });
    const s = await buildSplitScene(character, { ...base, part: "f", joint });
    expectSolidParts(s, 2);
    const vol = (sc: Scene, name: string) => { const p = sc.parts.find((q) => q.name === name)!; return signedVolume(p.positions, p.indices); };
    // The body carries the connector, the head lost a (slightly larger) socket.
    expect(vol(s, "body")).toBeGreaterThan(vol(plain, "body") + 1);
    expect(vol(s, "head")).toBeLessThan(vol(plain, "head") - 1);
    const gained = vol(s, "body") - vol(plain, "body"), lost = vol(plain, "head") - vol(s, "head");
    expect(lost).toBeGreaterThan(gained);
    // Ball and pin sockets are the connector plus clearance; a dovetail's slot also runs
    // out of the part so the key can slide in.
    if (joint !== "dovetail") expect(lost).toBeLessThan(gained * 2);
  });

  it("merge=no keeps the connectors as separate parts", async () => {
    const s = await buildSplitScene(character, { ...base, part: "e", joint: "ball", merge: false });
    const joints = s.parts.filter((p) => p.name.startsWith("joint_"));
    expect(s.parts.length - joints.length).toBe(3);
    expect(joints.length).toBeGreaterThanOrEqual(2);
    expectSolidParts(s, s.parts.length);
  });
});

describe("general split", () => {
  const sphere = sceneOf(uvSphere(40, 32, 64));
  it.each([["low", 2], ["medium", 4], ["high", 8]] as const)("%s -> %i parts, volume kept", async (level, n) => {
    const s = await buildSplitScene(sphere, { ...base, model: "general", part: "a", level });
    expectSolidParts(s, n);
    expect(sceneVolume(s) / sceneVolume(sphere)).toBeCloseTo(1, 3);
  });

  it("cuts along the longest axes", async () => {
    const slab = sceneOf(box([0, 0, 0], [100, 10, 40]));
    const s = await buildSplitScene(slab, { ...base, model: "general", part: "a", level: "medium" });
    for (const p of s.parts) {
      let minY = Infinity, maxY = -Infinity;
      for (let i = 1; i < p.positions.length; i += 3) { minY = Math.min(minY, p.positions[i]!); maxY = Math.max(maxY, p.positions[i]!); }
      expect(maxY - minY).toBeCloseTo(10, 4); // Y (shortest) is never cut
    }
  });

  it("falls back to clipping triangles when the mesh is not a manifold", async () => {
    const open = box([0, 0, 0], [10, 10, 10]);
    open.indices = open.indices.slice(0, 30); // one face removed
    const s = await buildSplitScene(sceneOf(open), { ...base, model: "general", part: "a", level: "high" });
    expect(s.parts.length).toBe(8);
    for (const p of s.parts) expect(p.indices.length).toBeGreaterThan(0);
  });
});
