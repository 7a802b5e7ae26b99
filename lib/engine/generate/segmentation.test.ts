import { describe, expect, it } from "vitest";
import type { Scene } from "@/lib/engine/mesh/types";
import { HUMANOID, humanoid, sceneOfManifold } from "./humanoid.test-helpers";
import { Arena, getManifold } from "./manifold";
import { checkManifold, weldScene } from "./mesh-ops";
import { edgeBend, faceNormals, halfEdgeTwins } from "./segment-graph";
import { buildSegmentationScene, faceNeighbours, segmentFaces, smoothBoundaries } from "./segmentation";
import { box, sceneOf, uvSphere } from "./generate.test-helpers";

// A dumbbell-ish model: two spheres and a bar (three separate closed shells).
const model = sceneOf(uvSphere(20, 24, 48, [-40, 0, 0]), uvSphere(20, 24, 48, [40, 0, 0]), box([-25, -5, -5], [25, 5, 5]));
const triangles = model.parts.reduce((n, p) => n + p.indices.length / 3, 0);

describe("segmentation", () => {
  it.each([
    ["low", 3],
    ["medium", 6],
    ["high", 10],
  ] as const)("%s -> %i regions covering every face, one material each", (level, k) => {
    const s = buildSegmentationScene(model, level);
    expect(s.parts.length).toBe(k);
    expect(s.parts.map((p) => p.name)).toEqual(Array.from({ length: k }, (_, i) => `segment_${i + 1}`));
    expect(s.parts.reduce((n, p) => n + p.indices.length / 3, 0)).toBe(triangles);
    const colours = new Set<string>(),
      names = new Set<string>();
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
        const hand = s.parts.filter((p) => {
          for (let i = 0; i < p.positions.length; i += 3) if (sign * p.positions[i]! > 70) return true;
          return false;
        });
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
      let minX = Infinity,
        maxX = -Infinity;
      for (let i = 0; i < p.positions.length; i += 3) {
        minX = Math.min(minX, p.positions[i]!);
        maxX = Math.max(maxX, p.positions[i]!);
      }
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
        for (let e = 0; e < 3; e++) {
          const g = nb[f * 3 + e]!;
          if (g >= 0 && labels[g] === r && !seen.has(g)) {
            seen.add(g);
            stack.push(g);
          }
        }
      }
      expect(seen.size).toBe(faces.length);
    }
  });

  it("faceNeighbours pairs the edges of a closed mesh", () => {
    const sphere = uvSphere(10);
    expect(checkManifold(sphere.indices).closed).toBe(true);
    expect(faceNeighbours(sphere.indices).every((g) => g >= 0)).toBe(true);
  });
  describe("structure: limbs joined along concave creases", () => {
    const H = HUMANOID;
    /** Known body part of a face of the T-pose humanoid, by its centroid, or null. */
    const known = (x: number, y: number): string | null => {
      if (y > H.neck.y1 + 1) return "head";
      if (y < H.crotch - 5) return x > 0 ? "left_leg" : "right_leg";
      if (x > H.torso.x + 3) return "left_arm";
      if (x < -H.torso.x - 3) return "right_arm";
      if (Math.abs(x) < H.torso.x - 1 && y > H.torso.y0 + 1 && y < H.torso.y1 - 1) return "torso";
      return null;
    };
    /** Label -> face count per known body part of a segmented scene. */
    const tally = (s: Scene) => {
      const out = new Map<string, Map<number, number>>();
      s.parts.forEach((p, label) => {
        for (let t = 0; t < p.indices.length; t += 3) {
          let x = 0,
            y = 0;
          for (let e = 0; e < 3; e++) {
            x += p.positions[p.indices[t + e]! * 3]! / 3;
            y += p.positions[p.indices[t + e]! * 3 + 1]! / 3;
          }
          const name = known(x, y);
          if (!name) continue;
          const m = out.get(name) ?? new Map<number, number>();
          m.set(label, (m.get(label) ?? 0) + 1);
          out.set(name, m);
        }
      });
      /** Per part: its majority label, that label's share of its faces, all labels' shares. */
      return new Map(
        [...out].map(([name, m]) => {
          const total = [...m.values()].reduce((a, b) => a + b, 0);
          const [label, n] = [...m].reduce((a, b) => (b[1] > a[1] ? b : a));
          return [name, { label, share: n / total, shares: new Map([...m].map(([l, c]) => [l, c / total])) }] as const;
        }),
      );
    };
    const faceKeys = (s: Scene) => {
      const keys: string[] = [];
      for (const p of s.parts) {
        for (let t = 0; t < p.indices.length; t += 3) {
          const v = [0, 1, 2].map((e) => [0, 1, 2].map((c) => p.positions[p.indices[t + e]! * 3 + c]!.toFixed(4)).join(","));
          // Rotate to the smallest corner first (same winding).
          const r = v.indexOf([...v].sort()[0]!);
          keys.push([0, 1, 2].map((e) => v[(r + e) % 3]).join(" "));
        }
      }
      return keys.sort();
    };

    it.each(["medium", "high"] as const)("%s: head, arms and legs each in their own segment, apart from the torso", async (level) => {
      const wasm = await getManifold();
      const arena = new Arena();
      try {
        const body = sceneOfManifold(humanoid(wasm, arena, "tpose", 64));
        const s = buildSegmentationScene(body, level);
        expect(s.parts.length).toBe(level === "medium" ? 6 : 10);
        const t = tally(s);
        const names = ["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"];
        // At high (10 segments > 7 structural pieces) the larger pieces are divided further.
        for (const n of names) expect(t.get(n)!.share, n).toBeGreaterThan(level === "high" ? 0.3 : 0.9);
        const torso = t.get("torso")!.label;
        for (const n of names.filter((x) => x !== "torso")) expect(t.get(n)!.label, n).not.toBe(torso);
        // No segment holds a real share (> 5%) of both the torso and a limb.
        const torsoLabels = [...t.get("torso")!.shares].filter(([, v]) => v > 0.05).map(([l]) => l);
        for (const n of names.filter((x) => x !== "torso")) {
          const shared = torsoLabels.reduce((a, l) => a + (t.get(n)!.shares.get(l) ?? 0), 0);
          expect(shared, n).toBeLessThan(0.05);
        }
        // And from each other: six distinct majority labels.
        expect(new Set(names.map((n) => t.get(n)!.label)).size).toBe(6);
        // Every input face exactly once, one named part and material per segment.
        expect(faceKeys(s)).toEqual(faceKeys({ parts: [{ name: "w", ...weldScene(body) }] }));
        expect(s.parts.map((p) => p.name)).toEqual(s.parts.map((_, i) => `segment_${i + 1}`));
        expect(s.parts.map((p) => p.material!.name)).toEqual(s.parts.map((_, i) => `segment_${i + 1}`));
        expect(new Set(s.parts.map((p) => p.material!.baseColorFactor.join(","))).size).toBe(s.parts.length);
      } finally {
        arena.free();
      }
    });

    it("a small box on a big box (low): the two boxes in different segments", async () => {
      const wasm = await getManifold();
      const arena = new Arena();
      try {
        const k = <T extends { delete(): void }>(x: T) => arena.keep(x);
        const m = k(
          wasm.Manifold.union([
            k(k(wasm.Manifold.cube([40, 20, 40])).translate([-20, 0, -20])),
            k(k(wasm.Manifold.cube([20, 20, 20])).translate([-10, 20, -10])),
          ]),
        );
        // Refined so k-means has faces to cluster across both boxes.
        const s = buildSegmentationScene(sceneOfManifold(k(m.refineToLength(2))), "low");
        const labelOf = (y0: number, y1: number) => {
          const c = new Map<number, number>();
          s.parts.forEach((p, i) => {
            for (let t = 0; t < p.indices.length; t += 3) {
              const y = [0, 1, 2].reduce((a, e) => a + p.positions[p.indices[t + e]! * 3 + 1]! / 3, 0);
              if (y > y0 && y < y1) c.set(i, (c.get(i) ?? 0) + 1);
            }
          });
          return [...c].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
        };
        const small = labelOf(21, 40),
          big = labelOf(0, 19.9);
        expect(small).not.toBe(big);
        // The whole small box is one segment: no face above the step shares the big box's label.
        const p = s.parts[big]!;
        for (let t = 0; t < p.indices.length; t += 3) {
          const y = [0, 1, 2].reduce((a, e) => a + p.positions[p.indices[t + e]! * 3 + 1]! / 3, 0);
          expect(y).toBeLessThanOrEqual(20 + 1e-4);
        }
      } finally {
        arena.free();
      }
    });
  });
});

describe("boundary smoothing", () => {
  it("planes off saw-teeth between two segments on a smooth sphere", async () => {
    const fine = uvSphere(50, 96, 192);
    const { positions, indices } = fine;
    const nf = indices.length / 3;
    // Two segments split at z = 0, with a comb of teeth (each 4 faces wide) reaching 6 mm across.
    const labels = new Int32Array(nf);
    for (let f = 0; f < nf; f++) {
      let x = 0,
        z = 0;
      for (let c = 0; c < 3; c++) {
        x += positions[indices[f * 3 + c]! * 3]!;
        z += positions[indices[f * 3 + c]! * 3 + 2]!;
      }
      x /= 3;
      z /= 3;
      const tooth = Math.floor((Math.atan2(z, x) + Math.PI) * 15) % 2 === 0 ? 6 : 0;
      labels[f] =
        (positions[indices[f * 3]! * 3 + 1]! + positions[indices[f * 3 + 1]! * 3 + 1]! + positions[indices[f * 3 + 2]! * 3 + 1]!) / 3 >
        tooth
          ? 1
          : 0;
    }
    const twin = halfEdgeTwins(indices, positions.length / 3);
    const { normal, area } = faceNormals(positions, indices);
    const bend = edgeBend(positions, indices, twin, normal);
    const boundary = (l: Int32Array) => {
      let n = 0;
      for (let h = 0; h < nf * 3; h++) if (twin[h]! >= 0 && l[(h / 3) | 0] !== l[(twin[h]! / 3) | 0]) n++;
      return n;
    };
    const before = boundary(labels);
    smoothBoundaries(labels, positions, indices, { twin, bend, area }, 2);
    expect(boundary(labels)).toBeLessThan(before * 0.6);
    // Both segments survive, each still most of its hemisphere.
    let upper = 0;
    for (let f = 0; f < nf; f++) if (labels[f] === 1) upper++;
    expect(upper / nf).toBeGreaterThan(0.4);
    expect(upper / nf).toBeLessThan(0.5);
  });
});
