/**
 * Model split by structure.
 *
 * Character (split-landmarks.ts): crotch, neck and arm planes are found from horizontal
 * cross-sections of the solid. The solid is cut with manifold-3d plane splits (closed,
 * capped halves), at the landmarks found only: the head above the neck plane; beside the
 * torso beyond each arm plane (components whose middle is above the crotch are the arm, the
 * rest belongs to the legs); the middle below the crotch plane are the legs, told apart by
 * their connected components (or a plane through the gap when they touch). A shape without
 * a crotch (a bust) has no legs, one without a neck (any convex shape) no head, a side
 * without an arm none there. Pieces of one label are unioned again, labels grouped into the
 * requested parts (GROUPS) and each part named after the labels it has (groupName). Joints go on every cut between two
 * output parts: a connector on the parent (torso side) and a socket with clearance in
 * the child (joints.ts); merged into the parent or kept as separate `joint_N` parts.
 *
 * General (split-general.ts): connected pieces, then recursive cuts at thin necks and at
 * concave creases (a ring of concave edges where the section steps up) along each
 * piece's principal axes; `level` sets how thin a neck and how sharp a step must be.
 *
 * Input that is not a closed manifold (a triangle soup, an open mesh) is clipped triangle
 * by triangle instead (open parts, no joints): general = connected pieces (union-find on
 * welded triangles) cut at necks of their section profile; character = the fixed box
 * layout (head = top 15%, legs = bottom 42%, arms = outer thirds).
 */
import type { Manifold, ManifoldToplevel } from "manifold-3d";
import type { Material, MeshPart, Scene } from "@/lib/engine/mesh/types";
import { InputContentError } from "./errors";
import type { SplitJob } from "./job";
import { type CutFace, type JointKind, boxesOverlap, connectorsAt } from "./joints";
import { Arena, getManifold } from "./manifold";
import { type Bounds, meshBounds, plainPart, weldScene } from "./mesh-ops";
import { type PieceOps, type TriMesh, type Vec3, LEVELS, structuralSplit } from "./split-general";
import { type Landmarks, findLandmarks, horizontalSlices } from "./split-landmarks";

export type Label = "head" | "torso" | "left_arm" | "right_arm" | "left_leg" | "right_leg";
interface Region {
  name: string;
  min: Vec3;
  max: Vec3;
}
export interface SplitPlan {
  regions: Region[];
  /** Output parts as lists of region names. */
  parts: { name: string; regions: string[] }[];
}

const I = Infinity;
export const GROUPS: Record<SplitJob["part"], Label[][]> = {
  a: [["head"], ["torso"], ["left_arm"], ["right_arm"], ["left_leg"], ["right_leg"]],
  b: [["head"], ["torso"], ["left_arm"], ["right_arm"], ["left_leg", "right_leg"]],
  c: [["head", "torso"], ["left_arm"], ["right_arm"], ["left_leg", "right_leg"]],
  d: [["head"], ["torso", "left_arm", "right_arm"], ["left_leg"], ["right_leg"]],
  e: [["head"], ["torso", "left_arm", "right_arm"], ["left_leg", "right_leg"]],
  f: [["head"], ["torso", "left_arm", "right_arm", "left_leg", "right_leg"]],
};
export const groupName = (g: string[]) =>
  g.length === 1 ? g[0]! : !g.includes("torso") ? "legs" : g.includes("head") ? "head_and_torso" : "body";

/** Fixed box layout for non-manifold input; the character faces +Z, its left is +X. */
export function boxCharacterPlan(b: Bounds, part: SplitJob["part"]): SplitPlan {
  const W = b.max[0] - b.min[0],
    H = b.max[1] - b.min[1];
  const neck = b.max[1] - 0.15 * H,
    hip = b.min[1] + 0.42 * H;
  const x1 = b.min[0] + W / 3,
    x2 = b.max[0] - W / 3,
    xc = (b.min[0] + b.max[0]) / 2;
  const regions: Region[] = [
    { name: "head", min: [-I, neck, -I], max: [I, I, I] },
    { name: "torso", min: [x1, hip, -I], max: [x2, neck, I] },
    { name: "left_arm", min: [x2, hip, -I], max: [I, neck, I] },
    { name: "right_arm", min: [-I, hip, -I], max: [x1, neck, I] },
    { name: "left_leg", min: [xc, -I, -I], max: [I, hip, I] },
    { name: "right_leg", min: [-I, -I, -I], max: [xc, hip, I] },
  ];
  return { regions, parts: GROUPS[part].map((g) => ({ name: groupName(g), regions: g })) };
}

const PALETTE: Vec3[] = [
  [0.8, 0.3, 0.25],
  [0.25, 0.55, 0.8],
  [0.35, 0.7, 0.35],
  [0.85, 0.7, 0.25],
  [0.6, 0.4, 0.75],
  [0.3, 0.7, 0.7],
  [0.85, 0.5, 0.6],
  [0.55, 0.55, 0.5],
  [0.9, 0.55, 0.2],
  [0.4, 0.45, 0.85],
];
/** A plain coloured material: colour i of a fixed palette, then golden-angle hues. */
export function paletteMaterial(i: number): Material {
  let c = PALETTE[i];
  if (!c) {
    const h = (i * 0.618033988749895) % 1,
      s = 0.55 + 0.25 * ((i >> 1) % 2),
      v = 0.8 - 0.2 * (i % 2);
    const f = (k: number) => {
      const x = (k + h * 6) % 6;
      return v - v * s * Math.max(0, Math.min(x, 4 - x, 1));
    };
    c = [f(5), f(3), f(1)];
  }
  return { name: `color_${i + 1}`, baseColorFactor: [c[0], c[1], c[2], 1], metallicFactor: 0, roughnessFactor: 0.7 };
}

const axisVec = (a: 0 | 1 | 2): Vec3 => [a === 0 ? 1 : 0, a === 1 ? 1 : 0, a === 2 ? 1 : 0];
const bboxCentre = (m: Manifold, a: number) => {
  const b = m.boundingBox();
  return (b.min[a]! + b.max[a]!) / 2;
};

/** Non-empty connected pieces on the negative and positive side of p[axis] = offset. */
function splitAxis(m: Manifold, axis: 0 | 1 | 2, offset: number, arena: Arena): [Manifold[], Manifold[]] {
  const [above, below] = m.splitByPlane(axisVec(axis), offset).map((x) => arena.keep(x)) as [Manifold, Manifold];
  const pieces = (x: Manifold) =>
    x.isEmpty()
      ? []
      : x
          .decompose()
          .map((p) => arena.keep(p))
          .filter((p) => p.volume() > 0);
  return [pieces(below), pieces(above)];
}

interface CharacterCut {
  parent: Label;
  child: Label;
  face: CutFace;
}
export interface CharacterPieces {
  labels: Map<Label, Manifold>;
  cuts: CharacterCut[];
  landmarks: Landmarks;
}

/**
 * Cuts a closed character solid into labelled pieces (see the file comment): only the
 * landmarks found in the geometry are cut, so a shape without legs has no leg pieces, one
 * without a neck no head, and a side without an arm keeps its width in the torso.
 */
export function carveCharacter(wasm: ManifoldToplevel, whole: Manifold, arena: Arena): CharacterPieces {
  const bb = whole.boundingBox();
  const b: Bounds = { min: [bb.min[0], bb.min[1], bb.min[2]], max: [bb.max[0], bb.max[1], bb.max[2]] };
  const { slices, probe } = horizontalSlices(whole, b, 128, arena);
  const lm = findLandmarks(slices, b, probe);
  const found = (l: Landmarks["fallback"][number]) => !lm.fallback.includes(l);
  const bins = new Map<Label, Manifold[]>();
  const put = (l: Label, m: Manifold) => bins.set(l, [...(bins.get(l) ?? []), m]);
  const side = (m: Manifold, x: number): "left" | "right" => (bboxCentre(m, 0) > x ? "left" : "right");
  const cuts: CharacterCut[] = [];

  const [body, above] = found("neck") ? splitAxis(whole, 1, lm.neck, arena) : [[whole], []];
  // The head: the largest piece above the neck over the body's centre; others are hands.
  const overCentre = above.filter((m) => {
    const r = m.boundingBox();
    return r.min[0] <= lm.xc && lm.xc <= r.max[0];
  });
  const head = (overCentre.length ? overCentre : above).reduce<Manifold | null>((a, m) => (!a || m.volume() > a.volume() ? m : a), null);
  for (const m of above) put(m === head ? "head" : `${side(m, lm.xc)}_arm`, m);

  // Beside the torso: the arm, or with legs below a crotch the pieces whose middle is under it.
  const besides = (pieces: Manifold[], s: "left" | "right") => {
    for (const m of pieces) put(found("crotch") && bboxCentre(m, 1) <= lm.crotch ? `${s}_leg` : `${s}_arm`, m);
  };
  let mid = body;
  if (found("left_arm")) {
    const sides = mid.map((piece) => splitAxis(piece, 0, lm.leftCut, arena));
    mid = sides.flatMap(([rest]) => rest);
    besides(
      sides.flatMap(([, left]) => left),
      "left",
    );
  }
  if (found("right_arm")) {
    const sides = mid.map((piece) => splitAxis(piece, 0, lm.rightCut, arena));
    mid = sides.flatMap(([, rest]) => rest);
    besides(
      sides.flatMap(([right]) => right),
      "right",
    );
  }
  let legsTouch = false;
  for (const piece of mid) {
    if (!found("crotch")) {
      put("torso", piece);
      continue;
    }
    const [legs, torso] = splitAxis(piece, 1, lm.crotch, arena);
    torso.forEach((m) => put("torso", m));
    for (const m of legs) {
      const r = m.boundingBox();
      if (r.min[0] < lm.legGap && lm.legGap < r.max[0]) {
        const [rl, ll] = splitAxis(m, 0, lm.legGap, arena);
        if (rl.length && ll.length) legsTouch = true;
        rl.forEach((x) => put("right_leg", x));
        ll.forEach((x) => put("left_leg", x));
      } else put(`${side(m, lm.legGap)}_leg`, m);
    }
  }
  const labels = new Map<Label, Manifold>();
  for (const [l, ms] of bins) labels.set(l, ms.length === 1 ? ms[0]! : arena.keep(wasm.Manifold.union(ms)));

  if (found("neck"))
    cuts.push({ parent: "torso", child: "head", face: { axis: 1, offset: lm.neck, childSide: 1, rect: [-I, I, lm.rightCut, lm.leftCut] } });
  if (found("left_arm"))
    cuts.push({
      parent: "torso",
      child: "left_arm",
      face: { axis: 0, offset: lm.leftCut, childSide: 1, rect: [lm.crotch, lm.neck, -I, I] },
    });
  if (found("right_arm"))
    cuts.push({
      parent: "torso",
      child: "right_arm",
      face: { axis: 0, offset: lm.rightCut, childSide: -1, rect: [lm.crotch, lm.neck, -I, I] },
    });
  if (found("crotch")) {
    cuts.push({
      parent: "torso",
      child: "left_leg",
      face: { axis: 1, offset: lm.crotch, childSide: -1, rect: [-I, I, lm.legGap, lm.leftCut] },
    });
    cuts.push({
      parent: "torso",
      child: "right_leg",
      face: { axis: 1, offset: lm.crotch, childSide: -1, rect: [-I, I, lm.rightCut, lm.legGap] },
    });
  }
  if (legsTouch)
    cuts.push({ parent: "right_leg", child: "left_leg", face: { axis: 0, offset: lm.legGap, childSide: 1, rect: [-I, lm.crotch, -I, I] } });
  return { labels, cuts, landmarks: lm };
}

function toPart(name: string, m: Manifold, index: number): MeshPart {
  const mesh = m.getMesh();
  const positions = mesh.numProp === 3 ? new Float32Array(mesh.vertProperties) : stripProps(mesh.vertProperties, mesh.numProp);
  const part = plainPart(name, positions, new Uint32Array(mesh.triVerts));
  part.material = paletteMaterial(index);
  return part;
}

function stripProps(props: Float32Array, numProp: number): Float32Array {
  const n = props.length / numProp;
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) out.set(props.subarray(i * numProp, i * numProp + 3), i * 3);
  return out;
}

/** Character split of a closed solid: grouped parts, then joints on the cuts between parts. */
function splitCharacter(
  wasm: ManifoldToplevel,
  whole: Manifold,
  part: SplitJob["part"],
  joint: "none" | JointKind,
  merge: boolean,
  arena: Arena,
): Scene {
  const { labels, cuts } = carveCharacter(wasm, whole, arena);
  const parts: { name: string; m: Manifold }[] = [];
  const partIndex = new Map<Label, number>();
  for (const g of GROUPS[part]) {
    // Named by the labels the shape has: a bust's legs group is no part, and its body no legs.
    const present = g.filter((l) => labels.get(l)?.isEmpty() === false);
    if (!present.length) continue;
    present.forEach((l) => partIndex.set(l, parts.length));
    const pieces = present.map((l) => labels.get(l)!);
    parts.push({ name: groupName(present), m: pieces.length === 1 ? pieces[0]! : arena.keep(wasm.Manifold.union(pieces)) });
  }
  const loose: { name: string; m: Manifold }[] = [];
  if (joint !== "none") {
    const bb = whole.boundingBox();
    const extent = Math.max(bb.max[0] - bb.min[0], bb.max[1] - bb.min[1], bb.max[2] - bb.min[2]);
    // Collect every connector first, then one boolean per part (booleans cost O(part)).
    const adds: Manifold[][] = parts.map(() => []);
    const subs: Manifold[][] = parts.map(() => []);
    for (const cut of cuts) {
      const pi = partIndex.get(cut.parent),
        ci = partIndex.get(cut.child);
      const child = labels.get(cut.child);
      if (pi === undefined || ci === undefined || pi === ci || !child || child.isEmpty()) continue;
      for (const c of connectorsAt(wasm, arena, child, cut.face, joint, extent)) {
        parts.forEach((p, i) => {
          if ((i !== pi || !merge) && boxesOverlap(p.m, c.cutter)) subs[i]!.push(c.cutter);
        });
        if (merge) adds[pi]!.push(c.key);
        else loose.push({ name: `joint_${loose.length + 1}`, m: c.key });
      }
    }
    parts.forEach((p, i) => {
      if (adds[i]!.length) p.m = arena.keep(wasm.Manifold.union([p.m, ...adds[i]!]));
      if (subs[i]!.length) p.m = arena.keep(wasm.Manifold.difference([p.m, ...subs[i]!]));
    });
  }
  return { parts: [...parts, ...loose].filter((p) => !p.m.isEmpty()).map((p, i) => toPart(p.name, p.m, i)) };
}

function manifoldMesh(m: Manifold): TriMesh {
  const mesh = m.getMesh();
  return { positions: mesh.numProp === 3 ? mesh.vertProperties : stripProps(mesh.vertProperties, mesh.numProp), indices: mesh.triVerts };
}

/** Pieces smaller than `share` of the total are unioned into the nearest other piece. */
function absorbSpecks<P>(pieces: P[], size: (p: P) => number, centre: (p: P) => Vec3, join: (a: P, b: P) => P, share: number): P[] {
  const total = pieces.reduce((s, p) => s + size(p), 0);
  // Which pieces are big is decided once: joining a speck replaces its big piece in `big`, so
  // asking `big.includes` later would no longer find that piece and would join it a second time.
  const isBig = pieces.map((p) => size(p) >= share * total);
  const big = pieces.filter((_, i) => isBig[i]);
  if (!big.length) return pieces;
  for (const [i, p] of pieces.entries()) {
    if (isBig[i]) continue;
    const c = centre(p);
    let best = 0,
      bd = Infinity;
    big.forEach((q, i) => {
      const d = Math.hypot(...centre(q).map((x, k) => x - c[k]!));
      if (d < bd) {
        bd = d;
        best = i;
      }
    });
    big[best] = join(big[best]!, p);
  }
  return big;
}

/** General split of a closed solid. */
function splitGeneral(wasm: ManifoldToplevel, whole: Manifold, level: SplitJob["level"], arena: Arena): Scene {
  const ops: PieceOps<Manifold> = {
    mesh: manifoldMesh,
    size: (p) => p.volume(),
    cut: (p, n, t) => {
      const halves = p.splitByPlane(n, t).map((x) => arena.keep(x));
      return halves.flatMap((h) => (h.isEmpty() ? [] : h.decompose().map((x) => arena.keep(x)))).filter((x) => x.volume() > 0);
    },
  };
  const comps = whole.decompose().map((x) => arena.keep(x));
  let pieces = structuralSplit(comps, level, ops);
  const centre = (m: Manifold): Vec3 => {
    const b = m.boundingBox();
    return [0, 1, 2].map((a) => (b.min[a]! + b.max[a]!) / 2) as Vec3;
  };
  pieces = absorbSpecks(pieces, ops.size, centre, (a, b) => arena.keep(wasm.Manifold.union(a, b)), LEVELS[level].minSide / 4);
  pieces.sort((a, b) => b.volume() - a.volume());
  return { parts: pieces.map((m, i) => toPart(`part_${i + 1}`, m, i)) };
}

/** A triangle soup piece: 9 floats per triangle. */
interface Soup {
  positions: Float32Array;
  indices: Uint32Array;
  area: number;
}

function soupOf(pos: ArrayLike<number>): Soup {
  const positions = Float32Array.from(pos);
  const indices = Uint32Array.from({ length: positions.length / 3 }, (_, i) => i);
  let area = 0;
  for (let t = 0; t < positions.length; t += 9) {
    const u = [0, 1, 2].map((c) => positions[t + 3 + c]! - positions[t + c]!),
      v = [0, 1, 2].map((c) => positions[t + 6 + c]! - positions[t + c]!);
    area += Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!) / 2;
  }
  return { positions, indices, area };
}

/** Clips a soup by the plane n . x = t into its two sides (polygons fan-triangulated). */
export function clipSoup(s: Soup, n: Vec3, t: number): Soup[] {
  const sides: number[][] = [[], []];
  const poly: number[][] = [[], []];
  const p = s.positions;
  for (let tri = 0; tri < p.length; tri += 9) {
    poly[0] = [];
    poly[1] = [];
    for (let k = 0; k < 3; k++) {
      const a = tri + k * 3,
        b = tri + ((k + 1) % 3) * 3;
      const da = n[0] * p[a]! + n[1] * p[a + 1]! + n[2] * p[a + 2]! - t,
        db = n[0] * p[b]! + n[1] * p[b + 1]! + n[2] * p[b + 2]! - t;
      poly[da >= 0 ? 1 : 0]!.push(p[a]!, p[a + 1]!, p[a + 2]!);
      if (da >= 0 !== db >= 0) {
        const f = da / (da - db);
        const q = [0, 1, 2].map((c) => p[a + c]! + f * (p[b + c]! - p[a + c]!));
        poly[0]!.push(...q);
        poly[1]!.push(...q);
      }
    }
    for (let sd = 0; sd < 2; sd++) {
      const q = poly[sd]!;
      for (let k = 3; k + 3 < q.length; k += 3)
        sides[sd]!.push(q[0]!, q[1]!, q[2]!, q[k]!, q[k + 1]!, q[k + 2]!, q[k + 3]!, q[k + 4]!, q[k + 5]!);
    }
  }
  return sides.filter((x) => x.length).map(soupOf);
}

/** Connected pieces of an indexed mesh (triangles sharing a vertex), as soups. */
function soupComponents(positions: Float32Array, indices: Uint32Array): Soup[] {
  const parent = Int32Array.from({ length: positions.length / 3 }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  for (let t = 0; t < indices.length; t += 3) {
    const a = find(indices[t]!);
    for (const v of [indices[t + 1]!, indices[t + 2]!]) {
      const b = find(v);
      if (b !== a) parent[b] = a;
    }
  }
  const groups = new Map<number, number[]>();
  for (let t = 0; t < indices.length; t += 3) {
    const r = find(indices[t]!);
    let g = groups.get(r);
    if (!g) groups.set(r, (g = []));
    for (let k = 0; k < 3; k++) {
      const v = indices[t + k]! * 3;
      g.push(positions[v]!, positions[v + 1]!, positions[v + 2]!);
    }
  }
  return [...groups.values()].map(soupOf);
}

/** General split of a non-manifold mesh: open parts. */
function splitSoup(positions: Float32Array, indices: Uint32Array, level: SplitJob["level"]): Scene {
  const ops: PieceOps<Soup> = { mesh: (s) => s, size: (s) => s.area, cut: clipSoup };
  const centre = (s: Soup): Vec3 => {
    const b = meshBounds(s.positions);
    return [0, 1, 2].map((a) => (b.min[a]! + b.max[a]!) / 2) as Vec3;
  };
  let pieces = structuralSplit(soupComponents(positions, indices), level, ops);
  pieces = absorbSpecks(
    pieces,
    ops.size,
    centre,
    (a, b) => {
      const p = new Float32Array(a.positions.length + b.positions.length);
      p.set(a.positions);
      p.set(b.positions, a.positions.length);
      return soupOf(p);
    },
    LEVELS[level].minSide / 4,
  );
  pieces.sort((a, b) => b.area - a.area);
  return {
    parts: pieces.map((s, i) => {
      const part = plainPart(`part_${i + 1}`, s.positions, s.indices);
      part.material = paletteMaterial(i);
      return part;
    }),
  };
}

/** Fallback for non-manifold input: clips every triangle to every region (open parts). */
export function clipSplit(positions: Float32Array, indices: Uint32Array, plan: SplitPlan): Scene {
  const out: MeshPart[] = [];
  const poly = new Float64Array(3 * 12),
    tmp = new Float64Array(3 * 12);
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
            const dk = s * (poly[k * 3 + a]! - o),
              dj = s * (poly[j * 3 + a]! - o);
            if (dk >= 0) {
              for (let c = 0; c < 3; c++) tmp[m * 3 + c] = poly[k * 3 + c]!;
              m++;
            }
            if (dk >= 0 !== dj >= 0) {
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
    const part = plainPart(
      p.name,
      positionsOut,
      Uint32Array.from({ length: pos.length / 3 }, (_, i) => i),
    );
    part.material = paletteMaterial(out.length);
    out.push(part);
  }
  return { parts: out };
}

export async function buildSplitScene(scene: Scene, job: Pick<SplitJob, "model" | "part" | "joint" | "merge" | "level">): Promise<Scene> {
  const welded = weldScene(scene);
  if (welded.indices.length === 0) throw new InputContentError("the mesh has no triangles");
  const wasm = await getManifold();
  const arena = new Arena();
  try {
    let whole: Manifold | null = null;
    try {
      const mesh = new wasm.Mesh({ numProp: 3, vertProperties: welded.positions, triVerts: welded.indices });
      mesh.merge();
      whole = arena.keep(new wasm.Manifold(mesh));
      if (whole.isEmpty() || !(whole.volume() > 0)) whole = null;
    } catch {
      whole = null;
    }
    if (!whole) {
      if (job.model === "general") return splitSoup(welded.positions, welded.indices, job.level);
      return clipSplit(welded.positions, welded.indices, boxCharacterPlan(meshBounds(welded.positions), job.part));
    }
    if (job.model === "general") return splitGeneral(wasm, whole, job.level, arena);
    return splitCharacter(wasm, whole, job.part, job.joint, job.merge, arena);
  } finally {
    arena.free();
  }
}
