/**
 * Model split. The bounding box is divided into axis-aligned boxes ("regions"); a part is
 * one region or a union of regions. Character: head = top 15%, legs = bottom 42% (split
 * left/right at the centre), arms = outer thirds in between, torso = the middle third.
 * General: halves along the 1 / 2 / 3 longest axes (2 / 4 / 8 parts). A manifold input
 * is cut exactly with manifold-3d (closed parts, optional joints); anything else is
 * clipped triangle by triangle (open parts, no joints).
 */
import type { Manifold } from "manifold-3d";
import type { Material, MeshPart, Scene } from "@/lib/engine/mesh/types";
import { InputContentError } from "./errors";
import type { SplitJob } from "./job";
import { type CutFace, type JointKind, boxesOverlap, connectorsAt } from "./joints";
import { Arena, getManifold } from "./manifold";
import { type Bounds, meshBounds, plainPart, weldScene } from "./mesh-ops";

type Vec3 = [number, number, number];
export interface Region { name: string; min: Vec3; max: Vec3 }
export interface SplitPlan {
  regions: Region[];
  /** Output parts as lists of region names. */
  parts: { name: string; regions: string[] }[];
  /** Parent priority for joints: earlier regions carry the connector. */
  parentOrder: string[];
}

const I = Infinity;
const GROUPS: Record<SplitJob["part"], string[][]> = {
  a: [["head"], ["torso"], ["left_arm"], ["right_arm"], ["left_leg"], ["right_leg"]],
  b: [["head"], ["torso"], ["left_arm"], ["right_arm"], ["left_leg", "right_leg"]],
  c: [["head", "torso"], ["left_arm"], ["right_arm"], ["left_leg", "right_leg"]],
  d: [["head"], ["torso", "left_arm", "right_arm"], ["left_leg"], ["right_leg"]],
  e: [["head"], ["torso", "left_arm", "right_arm"], ["left_leg", "right_leg"]],
  f: [["head"], ["torso", "left_arm", "right_arm", "left_leg", "right_leg"]],
};
const groupName = (g: string[]) =>
  g.length === 1 ? g[0]! : !g.includes("torso") ? "legs" : g.includes("head") ? "head_and_torso" : "body";

/** Character regions; the character faces +Z, so its left is +X. */
export function characterPlan(b: Bounds, part: SplitJob["part"]): SplitPlan {
  const W = b.max[0] - b.min[0], H = b.max[1] - b.min[1];
  const neck = b.max[1] - 0.15 * H, hip = b.min[1] + 0.42 * H;
  const x1 = b.min[0] + W / 3, x2 = b.max[0] - W / 3, xc = (b.min[0] + b.max[0]) / 2;
  const regions: Region[] = [
    { name: "head", min: [-I, neck, -I], max: [I, I, I] },
    { name: "torso", min: [x1, hip, -I], max: [x2, neck, I] },
    { name: "left_arm", min: [x2, hip, -I], max: [I, neck, I] },
    { name: "right_arm", min: [-I, hip, -I], max: [x1, neck, I] },
    { name: "left_leg", min: [xc, -I, -I], max: [I, hip, I] },
    { name: "right_leg", min: [-I, -I, -I], max: [xc, hip, I] },
  ];
  return {
    regions,
    parts: GROUPS[part].map((g) => ({ name: groupName(g), regions: g })),
    parentOrder: ["torso", "right_leg", "left_leg", "right_arm", "left_arm", "head"],
  };
}

/** Halves along the longest 1 (low), 2 (medium) or 3 (high) axes. */
export function generalPlan(b: Bounds, level: SplitJob["level"]): SplitPlan {
  const n = level === "low" ? 1 : level === "medium" ? 2 : 3;
  const axes = [0, 1, 2].sort((p, q) => b.max[q]! - b.min[q]! - (b.max[p]! - b.min[p]!)).slice(0, n);
  let regions: Region[] = [{ name: "part", min: [-I, -I, -I], max: [I, I, I] }];
  for (const a of axes) {
    const mid = (b.min[a]! + b.max[a]!) / 2;
    regions = regions.flatMap((r) => {
      const lo: Region = { name: `${r.name}_${a}0`, min: [...r.min], max: [...r.max] };
      const hi: Region = { name: `${r.name}_${a}1`, min: [...r.min], max: [...r.max] };
      lo.max[a] = mid;
      hi.min[a] = mid;
      return [lo, hi];
    });
  }
  regions.forEach((r, i) => (r.name = `part_${i + 1}`));
  return { regions, parts: regions.map((r) => ({ name: r.name, regions: [r.name] })), parentOrder: regions.map((r) => r.name) };
}

/** Faces shared by two regions that end up in different parts. */
export function cutFaces(plan: SplitPlan): { parent: string; child: string; face: CutFace }[] {
  const partOf = new Map<string, number>();
  plan.parts.forEach((p, i) => p.regions.forEach((r) => partOf.set(r, i)));
  const rank = (name: string) => plan.parentOrder.indexOf(name);
  const out: { parent: string; child: string; face: CutFace }[] = [];
  for (const A of plan.regions) {
    for (const B of plan.regions) {
      if (rank(A.name) >= rank(B.name) || partOf.get(A.name) === partOf.get(B.name)) continue;
      for (const axis of [0, 1, 2] as const) {
        const offset = A.max[axis] === B.min[axis] ? A.max[axis] : A.min[axis] === B.max[axis] ? A.min[axis] : NaN;
        if (!Number.isFinite(offset)) continue;
        const u = (axis + 1) % 3, w = (axis + 2) % 3;
        const rect: CutFace["rect"] = [Math.max(A.min[u]!, B.min[u]!), Math.min(A.max[u]!, B.max[u]!), Math.max(A.min[w]!, B.min[w]!), Math.min(A.max[w]!, B.max[w]!)];
        if (rect[1] <= rect[0] || rect[3] <= rect[2]) continue;
        out.push({ parent: A.name, child: B.name, face: { axis, offset, childSide: B.min[axis] === offset ? 1 : -1, rect } });
      }
    }
  }
  return out;
}

const PALETTE: Vec3[] = [
  [0.8, 0.3, 0.25], [0.25, 0.55, 0.8], [0.35, 0.7, 0.35], [0.85, 0.7, 0.25], [0.6, 0.4, 0.75],
  [0.3, 0.7, 0.7], [0.85, 0.5, 0.6], [0.55, 0.55, 0.5], [0.9, 0.55, 0.2], [0.4, 0.45, 0.85],
];
/** A plain coloured material, colour i of a fixed palette. */
export function paletteMaterial(i: number): Material {
  const c = PALETTE[i % PALETTE.length]!;
  return { name: `color_${i + 1}`, baseColorFactor: [c[0], c[1], c[2], 1], metallicFactor: 0, roughnessFactor: 0.7 };
}

export interface SplitOptions {
  plan: SplitPlan;
  joint: "none" | JointKind;
  /** Connectors merged into the parent part (else separate parts). */
  merge: boolean;
}

function trimToRegion(m: Manifold, r: Region, arena: Arena): Manifold {
  let out = m;
  for (let a = 0; a < 3; a++) {
    const axis = (sign: number): Vec3 => [a === 0 ? sign : 0, a === 1 ? sign : 0, a === 2 ? sign : 0];
    if (Number.isFinite(r.min[a]!)) out = arena.keep(out.trimByPlane(axis(1), r.min[a]!));
    if (Number.isFinite(r.max[a]!)) out = arena.keep(out.trimByPlane(axis(-1), -r.max[a]!));
  }
  return out;
}

/**
 * Cuts `m` into the regions: recursively by a plane that leaves every region on one side
 * (one split per plane, on ever smaller pieces), else by trimming to each region.
 */
function carve(m: Manifold, regions: Region[], arena: Arena): Map<string, Manifold> {
  if (regions.length === 1) return new Map([[regions[0]!.name, m]]);
  let best: { axis: number; offset: number; balance: number } | null = null;
  for (let axis = 0; axis < 3; axis++) {
    for (const r of regions) {
      for (const offset of [r.min[axis]!, r.max[axis]!]) {
        if (!Number.isFinite(offset)) continue;
        const below = regions.filter((q) => q.max[axis]! <= offset).length;
        const above = regions.filter((q) => q.min[axis]! >= offset).length;
        if (!below || !above || below + above !== regions.length) continue;
        const balance = Math.abs(below - above);
        if (!best || balance < best.balance) best = { axis, offset, balance };
      }
    }
  }
  if (!best) return new Map(regions.map((r) => [r.name, trimToRegion(m, r, arena)]));
  const { axis, offset } = best;
  const n: Vec3 = [axis === 0 ? 1 : 0, axis === 1 ? 1 : 0, axis === 2 ? 1 : 0];
  const [above, below] = m.splitByPlane(n, offset).map((x) => arena.keep(x)) as [Manifold, Manifold];
  return new Map([
    ...carve(below, regions.filter((q) => q.max[axis]! <= offset), arena),
    ...carve(above, regions.filter((q) => q.min[axis]! >= offset), arena),
  ]);
}

/** Splits a scene; returns one (coloured) part per non-empty plan part (+ loose connectors). */
export async function splitScene(scene: Scene, opts: SplitOptions): Promise<Scene> {
  const welded = weldScene(scene);
  if (welded.indices.length === 0) throw new InputContentError("the mesh has no triangles");
  const wasm = await getManifold();
  const arena = new Arena();
  try {
    let whole: Manifold;
    try {
      const mesh = new wasm.Mesh({ numProp: 3, vertProperties: welded.positions, triVerts: welded.indices });
      mesh.merge();
      whole = arena.keep(new wasm.Manifold(mesh));
      if (whole.isEmpty()) throw new Error("empty");
    } catch {
      return clipSplit(welded.positions, welded.indices, opts.plan);
    }
    const regionManifold = carve(whole, opts.plan.regions, arena);
    const parts: { name: string; m: Manifold }[] = [];
    const partIndex = new Map<string, number>();
    for (const p of opts.plan.parts) {
      const pieces = p.regions.map((r) => regionManifold.get(r)!).filter((m) => !m.isEmpty());
      if (!pieces.length) continue;
      p.regions.forEach((r) => partIndex.set(r, parts.length));
      parts.push({ name: p.name, m: pieces.length === 1 ? pieces[0]! : arena.keep(wasm.Manifold.union(pieces)) });
    }
    const loose: { name: string; m: Manifold }[] = [];
    if (opts.joint !== "none") {
      const bb = whole.boundingBox();
      const extent = Math.max(bb.max[0] - bb.min[0], bb.max[1] - bb.min[1], bb.max[2] - bb.min[2]);
      // Collect every connector first, then one boolean per part (booleans cost O(part)).
      const adds: Manifold[][] = parts.map(() => []);
      const subs: Manifold[][] = parts.map(() => []);
      for (const cut of cutFaces(opts.plan)) {
        const pi = partIndex.get(cut.parent), ci = partIndex.get(cut.child);
        const childPiece = regionManifold.get(cut.child)!;
        if (pi === undefined || ci === undefined || pi === ci || childPiece.isEmpty()) continue;
        for (const c of connectorsAt(wasm, arena, childPiece, cut.face, opts.joint, extent)) {
          parts.forEach((p, i) => {
            if ((i !== pi || !opts.merge) && boxesOverlap(p.m, c.cutter)) subs[i]!.push(c.cutter);
          });
          if (opts.merge) adds[pi]!.push(c.key);
          else loose.push({ name: `joint_${loose.length + 1}`, m: c.key });
        }
      }
      parts.forEach((p, i) => {
        if (adds[i]!.length) p.m = arena.keep(wasm.Manifold.union([p.m, ...adds[i]!]));
        if (subs[i]!.length) p.m = arena.keep(wasm.Manifold.difference([p.m, ...subs[i]!]));
      });
    }
    const out: MeshPart[] = [];
    for (const p of [...parts, ...loose]) {
      if (p.m.isEmpty()) continue;
      const mesh = p.m.getMesh();
      const positions = mesh.numProp === 3 ? new Float32Array(mesh.vertProperties) : stripProps(mesh.vertProperties, mesh.numProp);
      const part = plainPart(p.name, positions, new Uint32Array(mesh.triVerts));
      part.material = paletteMaterial(out.length);
      out.push(part);
    }
    return { parts: out };
  } finally {
    arena.free();
  }
}

function stripProps(props: Float32Array, numProp: number): Float32Array {
  const n = props.length / numProp;
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) out.set(props.subarray(i * numProp, i * numProp + 3), i * 3);
  return out;
}

/** Fallback for non-manifold input: clips every triangle to every region (open parts). */
export function clipSplit(positions: Float32Array, indices: Uint32Array, plan: SplitPlan): Scene {
  const out: MeshPart[] = [];
  const poly = new Float64Array(3 * 12), tmp = new Float64Array(3 * 12);
  for (const p of plan.parts) {
    const pos: number[] = [];
    for (const rname of p.regions) {
      const r = plan.regions.find((x) => x.name === rname)!;
      const planes: [number, number, number][] = []; // axis, sign, offset: keep sign * x >= sign * offset
      for (let a = 0; a < 3; a++) {
        if (Number.isFinite(r.min[a]!)) planes.push([a, 1, r.min[a]!]);
        if (Number.isFinite(r.max[a]!)) planes.push([a, -1, r.max[a]!]);
      }
      for (let t = 0; t < indices.length; t += 3) {
        let n = 3;
        for (let k = 0; k < 3; k++) for (let c = 0; c < 3; c++) poly[k * 3 + c] = positions[indices[t + k]! * 3 + c]!;
        for (const [a, s, o] of planes) {
          let m = 0;
          for (let k = 0; k < n; k++) {
            const j = (k + 1) % n;
            const dk = s * (poly[k * 3 + a]! - o), dj = s * (poly[j * 3 + a]! - o);
            if (dk >= 0) { for (let c = 0; c < 3; c++) tmp[m * 3 + c] = poly[k * 3 + c]!; m++; }
            if ((dk >= 0) !== (dj >= 0)) {
              const f = dk / (dk - dj);
              for (let c = 0; c < 3; c++) tmp[m * 3 + c] = poly[k * 3 + c]! + f * (poly[j * 3 + c]! - poly[k * 3 + c]!);
              m++;
            }
          }
          poly.set(tmp.subarray(0, m * 3));
          n = m;
          if (n < 3) break;
        }
        for (let k = 1; k + 1 < n; k++) {
          for (const v of [0, k, k + 1]) pos.push(poly[v * 3]!, poly[v * 3 + 1]!, poly[v * 3 + 2]!);
        }
      }
    }
    if (!pos.length) continue;
    const positionsOut = new Float32Array(pos);
    const part = plainPart(p.name, positionsOut, Uint32Array.from({ length: pos.length / 3 }, (_, i) => i));
    part.material = paletteMaterial(out.length);
    out.push(part);
  }
  return { parts: out };
}

export async function buildSplitScene(scene: Scene, job: Pick<SplitJob, "model" | "part" | "joint" | "merge" | "level">): Promise<Scene> {
  const b: Bounds = { min: [I, I, I], max: [-I, -I, -I] };
  for (const p of scene.parts) meshBounds(p.positions, b);
  if (!Number.isFinite(b.min[0])) throw new InputContentError("the mesh is empty");
  const plan = job.model === "character" ? characterPlan(b, job.part) : generalPlan(b, job.level);
  return splitScene(scene, { plan, joint: job.model === "character" ? job.joint : "none", merge: job.merge });
}
