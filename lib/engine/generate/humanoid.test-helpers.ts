/**
 * Test models for the split: a humanoid unioned from manifold-3d primitives with known
 * limb boundaries (hanging arms with a gap to the torso, or a T-pose), and a "general"
 * model with known necks. Units mm, +Y up, facing +Z (the character's left is +X).
 */
import type { Manifold, ManifoldToplevel } from "manifold-3d";
import type { Scene } from "@/lib/engine/mesh/types";
import type { Arena } from "./manifold";

export function sceneOfManifold(m: Manifold, name = "model"): Scene {
  const mesh = m.getMesh();
  const n = mesh.vertProperties.length / mesh.numProp;
  const positions = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) positions[i * 3 + c] = mesh.vertProperties[i * mesh.numProp + c]!;
  return { parts: [{ name, positions, indices: new Uint32Array(mesh.triVerts) }] };
}

/** Known layout of the humanoid (mm). */
export const HUMANOID = {
  legX: 10,
  legR: 7,
  crotch: 80,
  torso: { x: 18, y0: 80, y1: 145, z: 10 },
  neck: { r: 5, y0: 140, y1: 156 },
  head: { r: 12, y: 166 },
  /** Hanging arms: vertical cylinders at x = ±armX from armY0 up to the shoulder. */
  armX: 27,
  armR: 5,
  armY0: 70,
  armY1: 140,
  /** T-pose arms: horizontal cylinders at y = tArmY out to x = ±tArmX1. */
  tArmY: 132,
  tArmR: 6,
  tArmX1: 75,
};

/**
 * The humanoid: legs (cylinders, 6 mm apart) from y = 0 to the crotch at 80, a box
 * torso 80..145, neck cylinder, sphere head (top at 178), and arms hanging beside the
 * torso (4 mm gap, hands below the crotch) joined by shoulder boxes, or in a T-pose.
 * `segments` sets the tessellation (about 200k triangles at 700).
 */
export function humanoid(wasm: ManifoldToplevel, arena: Arena, pose: "hanging" | "tpose", segments = 48): Manifold {
  const { Manifold: M } = wasm;
  const H = HUMANOID;
  const k = <T extends { delete(): void }>(x: T) => arena.keep(x);
  const vcyl = (x: number, z: number, y0: number, y1: number, r: number) =>
    k(k(k(M.cylinder(y1 - y0, r, r, segments)).rotate([-90, 0, 0])).translate([x, y0, z]));
  const parts: Manifold[] = [
    vcyl(-H.legX, 0, 0, H.crotch + 5, H.legR),
    vcyl(H.legX, 0, 0, H.crotch + 5, H.legR),
    k(M.cube([2 * H.torso.x, H.torso.y1 - H.torso.y0, 2 * H.torso.z]).translate([-H.torso.x, H.torso.y0, -H.torso.z])),
    vcyl(0, 0, H.neck.y0, H.neck.y1, H.neck.r),
    k(k(M.sphere(H.head.r, segments)).translate([0, H.head.y, 0])),
  ];
  if (pose === "hanging") {
    for (const s of [-1, 1]) {
      parts.push(vcyl(s * H.armX, 0, H.armY0, H.armY1, H.armR));
      // Shoulder: a box from inside the torso over to the arm's top.
      parts.push(k(M.cube([H.armX - H.torso.x + 4, 6, 8]).translate([s > 0 ? H.torso.x - 2 : -H.armX - 2, H.armY1 - 3, -4])));
    }
  } else {
    for (const s of [-1, 1]) {
      const arm = k(k(M.cylinder(H.tArmX1 - H.torso.x + 4, H.tArmR, H.tArmR, segments)).rotate([0, s * 90, 0]));
      parts.push(k(arm.translate([s * (H.torso.x - 4), H.tArmY, 0])));
    }
  }
  return k(M.union(parts));
}

/** Known necks of `neckedModel`: cut positions must fall inside these x (or y) ranges. */
export const NECKED = {
  /** Dumbbell along X at y = z = 0: spheres r 15 at x = -60 and 0, bar radius 3. */
  dumbbellBar: [-47, -13] as [number, number],
  /** Chain along X at y = 60: spheres r 12 at x = -60, -30, 0, 30 joined by cylinders. */
  chainY: 60,
  chainNecks: [
    [-50, -40],
    [-20, -10],
    [10, 20],
  ] as [number, number][],
  /** Neck radii: strong (cut at every level), medium, weak (high only). */
  chainNeckR: [3.5, 7, 9.5],
  /** A separate cube. */
  cube: { min: [60, -10, -10] as [number, number, number], size: 20 },
};

/** Dumbbell + separate cube + chain of four spheres joined by necks of three strengths. */
export function neckedModel(wasm: ManifoldToplevel, arena: Arena, segments = 48): Manifold {
  const { Manifold: M } = wasm;
  const k = <T extends { delete(): void }>(x: T) => arena.keep(x);
  const xcyl = (x0: number, x1: number, y: number, r: number) =>
    k(k(k(M.cylinder(x1 - x0, r, r, segments)).rotate([0, 90, 0])).translate([x0, y, 0]));
  const sphere = (x: number, y: number, r: number) => k(k(M.sphere(r, segments)).translate([x, y, 0]));
  const N = NECKED;
  const dumbbell = k(M.union([sphere(-60, 0, 15), sphere(0, 0, 15), xcyl(-60, 0, 0, 3)]));
  const chain: Manifold[] = [];
  for (let i = 0; i < 4; i++) chain.push(sphere(-60 + 30 * i, N.chainY, 12));
  for (let i = 0; i < 3; i++) chain.push(xcyl(-60 + 30 * i, -30 + 30 * i, N.chainY, N.chainNeckR[i]!));
  const cube = k(M.cube(N.cube.size).translate(N.cube.min));
  return k(M.union([dumbbell, k(M.union(chain)), cube]));
}

/** A capsule (the hull of two spheres of radius r) from a to b. */
function capsule(
  wasm: ManifoldToplevel,
  arena: Arena,
  a: [number, number, number],
  b: [number, number, number],
  r: number,
  segments: number,
) {
  const k = <T extends { delete(): void }>(x: T) => arena.keep(x);
  const ball = (c: [number, number, number]) => k(k(wasm.Manifold.sphere(r, segments)).translate(c));
  return k(wasm.Manifold.hull([ball(a), ball(b)]));
}

/**
 * Known layout of the bust (mm): a chest box cut flat at y = 0 (no legs), a shoulder capsule
 * across it, upper-arm stubs hanging from the shoulders with a gap to the chest, a neck
 * capsule and a sphere head.
 */
export const BUST = {
  chest: { x: 20, y0: 0, y1: 44, z: 11 },
  shoulder: { x: 27, y: 42, r: 7 },
  /** Upper arms: vertical capsules at x = ±armX from armY0 to the shoulder, radius armR. */
  armX: 27,
  armR: 5.5,
  armY0: 12,
  neck: { r: 5.5, y0: 44, y1: 60 },
  head: { r: 13, y: 70 },
};

/** The bust of `BUST`, unioned from a box, capsules and a sphere. */
export function bust(wasm: ManifoldToplevel, arena: Arena, segments = 48): Manifold {
  const B = BUST;
  const k = <T extends { delete(): void }>(x: T) => arena.keep(x);
  const cap = (a: [number, number, number], b: [number, number, number], r: number) => capsule(wasm, arena, a, b, r, segments);
  const parts: Manifold[] = [
    k(k(wasm.Manifold.cube([2 * B.chest.x, B.chest.y1 - B.chest.y0, 2 * B.chest.z])).translate([-B.chest.x, B.chest.y0, -B.chest.z])),
    cap([-B.shoulder.x, B.shoulder.y, 0], [B.shoulder.x, B.shoulder.y, 0], B.shoulder.r),
    cap([0, B.neck.y0, 0], [0, B.neck.y1, 0], B.neck.r),
    k(k(wasm.Manifold.sphere(B.head.r, segments)).translate([0, B.head.y, 0])),
  ];
  for (const s of [-1, 1]) parts.push(cap([s * B.armX, B.armY0, 0], [s * B.armX, B.shoulder.y, 0], B.armR));
  // Cut flat at the chest's base, as a bust stands.
  return k(k(wasm.Manifold.union(parts)).trimByPlane([0, 1, 0], B.chest.y0));
}

/** Known layout of the rounded figure (mm): capsule limbs and torso, sphere head. */
export const FIGURE = {
  legX: 9,
  legR: 6.5,
  /** Legs run from the feet (y = legR) up into the torso, whose round bottom (y0 - r = 78) is the crotch. */
  legY1: 88,
  torso: { y0: 95, y1: 140, r: 17 },
  neck: { r: 5, y0: 140, y1: 160 },
  head: { r: 12, y: 170 },
  /** Arms: capsules from the shoulder (±shoulderX, shoulderY) out and down to the hand (±handX, handY). */
  shoulderX: 22,
  shoulderY: 142,
  handX: 32,
  handY: 84,
  armR: 5,
};

/** A full-body figure of capsules and spheres (arms hanging out at an angle, clear of the body). */
export function roundFigure(wasm: ManifoldToplevel, arena: Arena, segments = 48): Manifold {
  const F = FIGURE;
  const k = <T extends { delete(): void }>(x: T) => arena.keep(x);
  const cap = (a: [number, number, number], b: [number, number, number], r: number) => capsule(wasm, arena, a, b, r, segments);
  const parts: Manifold[] = [
    cap([0, F.torso.y0, 0], [0, F.torso.y1, 0], F.torso.r),
    cap([0, F.neck.y0, 0], [0, F.neck.y1, 0], F.neck.r),
    k(k(wasm.Manifold.sphere(F.head.r, segments)).translate([0, F.head.y, 0])),
  ];
  for (const s of [-1, 1]) {
    parts.push(cap([s * F.legX, F.legR, 0], [s * F.legX, F.legY1, 0], F.legR));
    parts.push(cap([s * F.shoulderX, F.shoulderY, 0], [s * F.handX, F.handY, 0], F.armR));
  }
  return k(wasm.Manifold.union(parts));
}
