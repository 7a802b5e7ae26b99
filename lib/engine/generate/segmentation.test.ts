import { describe, expect, it } from "vitest";
import { humanoid, sceneOfManifold } from "./humanoid.test-model";
import { Arena, getManifold } from "./manifold";
import { checkManifold } from "./mesh-ops";
import { buildSegmentationScene, faceNeighbours, segmentFaces } from "./segmentation";
import { box, sceneOf, uvSphere } from "./testing";

// A dumbbell-ish model: two spheres and a bar (three separate closed shells).
const model = sceneOf(uvSphere(20, 24, 48, [-40, 0, 0]), uvSphere(20, 24, 48, [40, 0, 0]), box([-25, -5, -5], [25, 5, 5]));
const triangles = model.parts.reduce((n, p) => n + p.indices.length / 3, 0);

describe("segmentation", () => {
  it.each([["low", 3], ["medium", 6], ["high", 10]] as const)("%s -> %i regions covering every face, one material each", (level, k) => {
    const s = buildSegmentationScene(model, level);
    expect(s.parts.length).toBe(k);
    expect(s.parts.map((p) => p.name)).toEqual(Array.from({ length: k }, (_, i) => `segment_${i + 1}`));
    expect(s.parts.reduce((n, p) => n + p.indices.length / 3, 0)).toBe(triangles);
    const colours = new Set<string>(), names = new Set<string>();
    for (const p of s.parts) {
      expect(p.indices.length).toBeGreaterThan(0);
      expect(p.material).toBeDefined();
      colours.add(p.material!.baseColorFactor.join(","));
      names.add(p.material!.name);
    }
    expect(colours.size).toBe(k);
    expect(names.size).toBe(k);
  });

  it("segments a primitive humanoid into limb-like regions (medium)", async () => {
    const wasm = await getManifold();
    const arena = new Arena();
    try {
      const body = sceneOfManifold(humanoid(wasm, arena, "tpose", 64));
      const s = buildSegmentationScene(body, "medium");
      expect(s.parts.length).toBe(6);
      // Both T-pose hands (x beyond 60) lie in segments that reach no further than the shoulder.
      for (const sign of [1, -1]) {
        const hand = s.parts.filter((p) => { for (let i = 0; i < p.positions.length; i += 3) if (sign * p.positions[i]! > 70) return true; return false; });
        expect(hand.length).toBeGreaterThan(0);
        for (const p of hand) {
          let inner = Infinity;
          for (let i = 0; i < p.positions.length; i += 3) inner = Math.min(inner, sign * p.positions[i]!);
          expect(inner).toBeGreaterThan(0);
        }
      }
    } finally {
      arena.free();
    }
  });

  it("regions are spatially coherent: the two far spheres never share a region at low level", () => {
    const s = buildSegmentationScene(model, "low");
    for (const p of s.parts) {
      let minX = Infinity, maxX = -Infinity;
      for (let i = 0; i < p.positions.length; i += 3) { minX = Math.min(minX, p.positions[i]!); maxX = Math.max(maxX, p.positions[i]!); }
      expect(minX < -45 && maxX > 45).toBe(false);
    }
  });

  it("each region of a single connected sphere is connected", () => {
    const sphere = uvSphere(30, 32, 64);
    const labels = segmentFaces(sphere.positions, sphere.indices, 6);
    expect(new Set(labels).size).toBe(6);
    const nb = faceNeighbours(sphere.indices);
    for (let r = 0; r < 6; r++) {
      const faces = [...labels.keys()].filter((f) => labels[f] === r);
      const seen = new Set([faces[0]!]);
      const stack = [faces[0]!];
      while (stack.length) {
        const f = stack.pop()!;
        for (let e = 0; e < 3; e++) { const g = nb[f * 3 + e]!; if (g >= 0 && labels[g] === r && !seen.has(g)) { seen.add(g); stack.push(g); } }
      }
      expect(seen.size).toBe(faces.length);
    }
  });

  it("faceNeighbours pairs the edges of a closed mesh", () => {
    const sphere = uvSphere(10);
    expect(checkManifold(sphere.indices).closed).toBe(true);
    expect(faceNeighbours(sphere.indices).every((g) => g >= 0)).toBe(true);
  });
});
