/**
 * General (structural) split: connected pieces first, then every piece is cut at thin
 * necks and at concave creases, recursively.
 *
 * Neck: a valley of the cross-section area along one of the piece's principal (PCA) axes,
 * a section with a larger one on each side (a convex piece has none: see isValley), scored
 * area(neck) / min(max area before, max area after). `level` sets the score threshold
 * (low 0.25, medium 0.5, high 0.8) and the smallest share of the piece each side must
 * hold, so low finds only pronounced necks and high also shallow ones.
 *
 * Crease: a step in the section area with no neck (a small box on a big one, a cap on a
 * stem), found where a ring of concave edges (dihedral bend over 30 degrees, running
 * across the axis) lies in one plane across a principal or world axis and covers at least
 * half the perimeter of the narrow side's section next to it. Score = largest section of
 * the whole narrow side / largest section of the wide side near the ring (within the
 * narrow side's equivalent radius), so a neck (the narrow side widens again further on)
 * is never a crease; threshold low 0.3, medium 0.6, high 0.85. The cut plane goes through
 * the ring (just inside the narrow side). Necks and creases compete by score. A narrow side that ends in the cap of an earlier neck cut is a stub of that
 * neck, not a protrusion, and is not cut off.
 *
 * Models where neither is found are halved (by volume) across their principal axis,
 * largest part first, up to a minimum part count (2 / 3 / 4).
 *
 * Section areas and perimeters come from one pass over the triangles per axis (Green's
 * theorem on the oriented intersection segments, no loop assembly), concave edges from
 * one linear half-edge pairing, so the analysis is linear in the triangle count. The same
 * recursion runs on manifold-3d solids (plane splits give closed halves) and on triangle
 * soups (clipped triangle by triangle, open parts; soups have no shared edges, hence no
 * creases).
 */
import type { SplitJob } from "./job";
import { CREASE_BEND, edgeBend, faceNormals, halfEdgeTwins } from "./segment-graph";

export type Vec3 = [number, number, number];

export interface LevelParams {
  threshold: number;
  step: number;
  minSide: number;
  minParts: number;
  maxParts: number;
}
export const LEVELS: Record<SplitJob["level"], LevelParams> = {
  low: { threshold: 0.25, step: 0.3, minSide: 0.06, minParts: 2, maxParts: 8 },
  medium: { threshold: 0.5, step: 0.6, minSide: 0.03, minParts: 3, maxParts: 16 },
  high: { threshold: 0.8, step: 0.85, minSide: 0.015, minParts: 4, maxParts: 32 },
};
/** Share of the narrow side's section perimeter the concave ring must cover. */
const RING_SHARE = 0.5;

export interface TriMesh {
  positions: Float32Array | Float64Array;
  indices: Uint32Array;
}

/** Area-weighted centroid and principal axes (largest variance first) of a surface. */
export function principalAxes(m: TriMesh): { centroid: Vec3; axes: Vec3[] } {
  const { positions: p, indices: ix } = m;
  let W = 0;
  const c: Vec3 = [0, 0, 0];
  const S = [0, 0, 0, 0, 0, 0]; // xx yy zz xy xz yz
  for (let t = 0; t < ix.length; t += 3) {
    const a = ix[t]! * 3,
      b = ix[t + 1]! * 3,
      d = ix[t + 2]! * 3;
    const ux = p[b]! - p[a]!,
      uy = p[b + 1]! - p[a + 1]!,
      uz = p[b + 2]! - p[a + 2]!;
    const vx = p[d]! - p[a]!,
      vy = p[d + 1]! - p[a + 1]!,
      vz = p[d + 2]! - p[a + 2]!;
    const w = Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) + 1e-12;
    const x = p[a]! + p[b]! + p[d]!,
      y = p[a + 1]! + p[b + 1]! + p[d + 1]!,
      z = p[a + 2]! + p[b + 2]! + p[d + 2]!;
    W += w;
    c[0] += (w * x) / 3;
    c[1] += (w * y) / 3;
    c[2] += (w * z) / 3;
    // Exact second moments of the triangle: (sum v v^T + s s^T) / 12.
    const m = (i: number, j: number) => p[a + i]! * p[a + j]! + p[b + i]! * p[b + j]! + p[d + i]! * p[d + j]!;
    const k = w / 12;
    S[0]! += k * (m(0, 0) + x * x);
    S[1]! += k * (m(1, 1) + y * y);
    S[2]! += k * (m(2, 2) + z * z);
    S[3]! += k * (m(0, 1) + x * y);
    S[4]! += k * (m(0, 2) + x * z);
    S[5]! += k * (m(1, 2) + y * z);
  }
  if (W === 0)
    return {
      centroid: [0, 0, 0],
      axes: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    };
  c[0] /= W;
  c[1] /= W;
  c[2] /= W;
  const cov = [
    [S[0]! / W - c[0] * c[0], S[3]! / W - c[0] * c[1], S[4]! / W - c[0] * c[2]],
    [S[3]! / W - c[0] * c[1], S[1]! / W - c[1] * c[1], S[5]! / W - c[1] * c[2]],
    [S[4]! / W - c[0] * c[2], S[5]! / W - c[1] * c[2], S[2]! / W - c[2] * c[2]],
  ];
  return { centroid: c, axes: jacobiEigen(cov) };
}

/** Eigenvectors of a symmetric 3x3 matrix, by decreasing eigenvalue (cyclic Jacobi). */
function jacobiEigen(a: number[][]): Vec3[] {
  const A = a.map((r) => [...r]);
  const V = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const g = (r: number[][], i: number, j: number) => r[i]![j]!;
  for (let sweep = 0; sweep < 30; sweep++) {
    const off = Math.abs(g(A, 0, 1)) + Math.abs(g(A, 0, 2)) + Math.abs(g(A, 1, 2));
    if (off < 1e-14 * (Math.abs(g(A, 0, 0)) + Math.abs(g(A, 1, 1)) + Math.abs(g(A, 2, 2)) + 1e-30)) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = g(A, p, q);
      if (Math.abs(apq) < 1e-300) continue;
      const theta = (g(A, q, q) - g(A, p, p)) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const cs = 1 / Math.sqrt(t * t + 1),
        sn = t * cs;
      for (let k = 0; k < 3; k++) {
        const akp = g(A, k, p),
          akq = g(A, k, q);
        A[k]![p] = cs * akp - sn * akq;
        A[k]![q] = sn * akp + cs * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = g(A, p, k),
          aqk = g(A, q, k);
        A[p]![k] = cs * apk - sn * aqk;
        A[q]![k] = sn * apk + cs * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = g(V, k, p),
          vkq = g(V, k, q);
        V[k]![p] = cs * vkp - sn * vkq;
        V[k]![q] = sn * vkp + cs * vkq;
      }
    }
  }
  return [0, 1, 2].sort((i, j) => g(A, j, j) - g(A, i, i)).map((i): Vec3 => [g(V, 0, i), g(V, 1, i), g(V, 2, i)]);
}

export interface Profile {
  /** Plane offsets (n . x = t) of the slices, evenly spaced inside the piece's extent. */
  t: Float64Array;
  area: Float64Array;
  /** Section perimeters (total length of the intersection segments). */
  perimeter: Float64Array;
  /** Spacing between slices. */
  dt: number;
}

/**
 * Cross-section areas of a closed, consistently oriented surface at `count` planes with
 * normal `n` (|sum of (P x Q) . n| / 2 over the oriented segments each triangle leaves).
 */
export function areaProfile(m: TriMesh, n: Vec3, count: number, origin: Vec3): Profile {
  const { positions: p, indices: ix } = m;
  const nv = p.length / 3;
  const d = new Float64Array(nv);
  let lo = Infinity,
    hi = -Infinity;
  for (let v = 0; v < nv; v++) {
    const x = n[0] * p[v * 3]! + n[1] * p[v * 3 + 1]! + n[2] * p[v * 3 + 2]!;
    d[v] = x;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  const dt = (hi - lo) / count;
  const t = Float64Array.from({ length: count }, (_, j) => lo + (j + 0.5) * dt);
  const area = new Float64Array(count),
    perimeter = new Float64Array(count);
  if (!(dt > 0)) return { t, area, perimeter, dt };
  const pt = (a: number, b: number, level: number, out: number[]) => {
    const f = (level - d[a]!) / (d[b]! - d[a]!);
    for (let k = 0; k < 3; k++) out[k] = p[a * 3 + k]! - origin[k]! + f * (p[b * 3 + k]! - p[a * 3 + k]!);
  };
  const P = [0, 0, 0],
    Q = [0, 0, 0];
  for (let tri = 0; tri < ix.length; tri += 3) {
    const v0 = ix[tri]!,
      v1 = ix[tri + 1]!,
      v2 = ix[tri + 2]!;
    const d0 = d[v0]!,
      d1 = d[v1]!,
      d2 = d[v2]!;
    const mn = Math.min(d0, d1, d2),
      mx = Math.max(d0, d1, d2);
    const j0 = Math.max(0, Math.ceil((mn - lo) / dt - 0.5)),
      j1 = Math.min(count - 1, Math.floor((mx - lo) / dt - 0.5));
    for (let j = j0; j <= j1; j++) {
      const level = t[j]!;
      let up = false,
        down = false;
      for (const [a, b] of [
        [v0, v1],
        [v1, v2],
        [v2, v0],
      ] as const) {
        const da = d[a]!,
          db = d[b]!;
        if (da < level && db >= level) {
          pt(a, b, level, P);
          up = true;
        } else if (da >= level && db < level) {
          pt(a, b, level, Q);
          down = true;
        }
      }
      if (!up || !down) continue;
      const cx = P[1]! * Q[2]! - P[2]! * Q[1]!,
        cy = P[2]! * Q[0]! - P[0]! * Q[2]!,
        cz = P[0]! * Q[1]! - P[1]! * Q[0]!;
      area[j] = area[j]! + 0.5 * (cx * n[0] + cy * n[1] + cz * n[2]);
      perimeter[j] = perimeter[j]! + Math.hypot(P[0]! - Q[0]!, P[1]! - Q[1]!, P[2]! - Q[2]!);
    }
  }
  for (let j = 0; j < count; j++) area[j] = Math.abs(area[j]!);
  return { t, area, perimeter, dt };
}

export interface Neck {
  t: number;
  score: number;
}

/**
 * How far below a computed section area may lie under a larger one and still be equal to it:
 * areas are float64 sums over float32 coordinates, exact to about 1e-15 of the largest section
 * (a box's flat profile dips by 2e-16); 1e-9 of the largest leaves room for long sums and is far
 * under any shape's own variation.
 */
const SECTION_ROUNDING = 1e-9;

/**
 * Is a section of area `own` a valley: is there a larger section on both sides (`before` and
 * `after` are the largest on each side, `largest` the profile's largest)? A convex body's
 * sections along any axis rise and then fall (Brunn-Minkowski: the square root of the area is
 * concave), so none of them is a valley: a convex body has no neck by construction.
 */
export function isValley(own: number, before: number, after: number, largest: number): boolean {
  return Math.min(before, after) - own > SECTION_ROUNDING * largest;
}

/** The strongest neck of a profile (see the file comment), or null. */
export function findNeck(pr: Profile, minSide: number): Neck | null {
  const A = pr.area,
    n = A.length;
  if (n < 5) return null;
  const total = A.reduce((s, x) => s + x, 0);
  if (!(total > 0)) return null;
  const L = new Float64Array(n),
    R = new Float64Array(n),
    cum = new Float64Array(n + 1);
  for (let j = 1; j < n; j++) L[j] = Math.max(L[j - 1]!, A[j - 1]!);
  for (let j = n - 2; j >= 0; j--) R[j] = Math.max(R[j + 1]!, A[j + 1]!);
  for (let j = 0; j < n; j++) cum[j + 1] = cum[j]! + A[j]!;
  const largest = Math.max(L[n - 1]!, A[n - 1]!);
  const score = new Float64Array(n).fill(Infinity);
  let best = -1;
  for (let j = 1; j < n - 1; j++) {
    if (cum[j]! < minSide * total || total - cum[j + 1]! < minSide * total) continue;
    if (!isValley(A[j]!, L[j]!, R[j]!, largest)) continue;
    score[j] = A[j]! / Math.min(L[j]!, R[j]!);
    if (best < 0 || score[j]! < score[best]!) best = j;
  }
  if (best < 0) return null;
  // A neck of constant section (a bar): cut in the middle of its run.
  const tol = score[best]! * 1.05 + 0.01;
  let j0 = best,
    j1 = best;
  while (j0 > 0 && score[j0 - 1]! <= tol) j0--;
  while (j1 < n - 1 && score[j1 + 1]! <= tol) j1++;
  const mid = (j0 + j1) / 2;
  return { t: pr.t[0]! + mid * pr.dt, score: score[best]! };
}

export interface PieceOps<P> {
  mesh(p: P): TriMesh;
  /** Pieces on both sides of the plane n . x = t (connected pieces where cheap). */
  cut(p: P, n: Vec3, t: number): P[];
  /** Size measure (volume for solids, area for soups). */
  size(p: P): number;
}

export interface CutPlane {
  n: Vec3;
  t: number;
  score: number;
}

/** The best neck cut of a piece over its three principal axes, or null. */
export function bestNeckCut(m: TriMesh, minSide: number, slices = 96): CutPlane | null {
  const { centroid, axes } = principalAxes(m);
  let best: CutPlane | null = null;
  for (const n of axes) {
    const neck = findNeck(areaProfile(m, n, slices, centroid), minSide);
    if (neck && (!best || neck.score < best.score)) best = { n, t: neck.t, score: neck.score };
  }
  return best;
}

/** Concave crease edges of a surface: midpoints and length-scaled directions, 3 floats each. */
export interface CreaseEdges {
  mid: Float64Array;
  dir: Float64Array;
  count: number;
}

export function creaseEdges(m: TriMesh, minBend = CREASE_BEND): CreaseEdges {
  const { positions: p, indices: ix } = m;
  const twin = halfEdgeTwins(ix, p.length / 3);
  const bend = edgeBend(p, ix, twin, faceNormals(p, ix).normal);
  const hs: number[] = [];
  for (let h = 0; h < ix.length; h++) if (twin[h]! > h && bend[h]! > minBend) hs.push(h);
  const mid = new Float64Array(hs.length * 3),
    dir = new Float64Array(hs.length * 3);
  hs.forEach((h, i) => {
    const a = ix[h]! * 3,
      b = ix[h - (h % 3) + (((h % 3) + 1) % 3)]! * 3;
    for (let k = 0; k < 3; k++) {
      mid[i * 3 + k] = (p[a + k]! + p[b + k]!) / 2;
      dir[i * 3 + k] = p[b + k]! - p[a + k]!;
    }
  });
  return { mid, dir, count: hs.length };
}

/** Does any vertex lying on `plane` sit on side `s` of n . x = t, beyond `margin`? */
function touchesBeyond(m: TriMesh, plane: CutPlane, n: Vec3, t: number, s: number, margin: number, eps: number): boolean {
  const p = m.positions,
    q = plane.n;
  for (let v = 0; v < p.length; v += 3) {
    const x = p[v]!,
      y = p[v + 1]!,
      z = p[v + 2]!;
    if (Math.abs(q[0] * x + q[1] * y + q[2] * z - plane.t) > eps) continue;
    if (s * (n[0] * x + n[1] * y + n[2] * z - t) > margin) return true;
  }
  return false;
}

/**
 * The world axes, then the principal axes that are not (nearly) one of them. World axes come
 * first and are always tried: a model is modelled level more often than not, and a box set
 * off-centre on a slab tilts the principal axes by a few degrees, whose slanted slices then
 * smear the crease ring over several slices (a tilted cut, or none at 96 slices).
 */
function candidateAxes(axes: Vec3[]): Vec3[] {
  const out: Vec3[] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (const a of axes) if (out.every((w) => Math.abs(a[0] * w[0] + a[1] * w[1] + a[2] * w[2]) < 0.99999)) out.push(a);
  return out;
}

/**
 * The strongest crease cut of a piece (see the file comment) with score under `step`,
 * or null. `necks` are earlier neck cuts that made the piece (their caps end stubs).
 */
export function bestCreaseCut(m: TriMesh, L: Pick<LevelParams, "step" | "minSide">, necks: CutPlane[] = [], slices = 96): CutPlane | null {
  const edges = creaseEdges(m);
  if (!edges.count) return null;
  const { centroid, axes } = principalAxes(m);
  let ext = 0;
  {
    const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let v = 0; v < m.positions.length; v += 3)
      for (let k = 0; k < 3; k++) {
        b[k] = Math.min(b[k]!, m.positions[v + k]!);
        b[k + 3] = Math.max(b[k + 3]!, m.positions[v + k]!);
      }
    ext = Math.hypot(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!);
  }
  let best: CutPlane | null = null;
  for (const n of candidateAxes(axes)) {
    const pr = areaProfile(m, n, slices, centroid);
    const { t, area: A, perimeter: per, dt } = pr;
    const count = A.length;
    if (!(dt > 0)) continue;
    const lo = t[0]! - dt / 2;
    // Ring length per slice: concave edges running across the axis, by their midpoint.
    const ring = new Float64Array(count),
      ringT = new Float64Array(count);
    for (let e = 0; e < edges.count; e++) {
      const dx = edges.dir[e * 3]!,
        dy = edges.dir[e * 3 + 1]!,
        dz = edges.dir[e * 3 + 2]!;
      const len = Math.hypot(dx, dy, dz),
        along = Math.abs(dx * n[0] + dy * n[1] + dz * n[2]);
      if (!(len > 0) || along > 0.7 * len) continue;
      const tm = edges.mid[e * 3]! * n[0] + edges.mid[e * 3 + 1]! * n[1] + edges.mid[e * 3 + 2]! * n[2];
      const j = Math.min(count - 1, Math.max(0, Math.floor((tm - lo) / dt)));
      const w = Math.sqrt(len * len - along * along);
      ring[j] = ring[j]! + w;
      ringT[j] = ringT[j]! + w * tm;
    }
    const total = A.reduce((a, x) => a + x, 0);
    if (!(total > 0)) continue;
    for (let j = 0; j < count; j++) {
      if (!(ring[j]! > 0)) continue;
      // A ring is counted once, at its strongest slice.
      if ((j > 0 && ring[j - 1]! > ring[j]!) || (j < count - 1 && ring[j + 1]! >= ring[j]!)) continue;
      let R = 0,
        RT = 0;
      for (let i = Math.max(0, j - 1); i <= Math.min(count - 1, j + 1); i++) {
        R += ring[i]!;
        RT += ringT[i]!;
      }
      const tr = RT / R;
      let maxB = 0,
        maxA = 0,
        cumB = 0,
        cumA = 0;
      for (let i = 0; i < count; i++) {
        if (t[i]! < tr - dt / 2) {
          maxB = Math.max(maxB, A[i]!);
          cumB += A[i]!;
        } else if (t[i]! > tr + dt / 2) {
          maxA = Math.max(maxA, A[i]!);
          cumA += A[i]!;
        }
      }
      if (cumB < L.minSide * total || cumA < L.minSide * total) continue;
      const s = maxA < maxB ? 1 : -1;
      const N = Math.min(maxA, maxB);
      const win = Math.max(3 * dt, Math.sqrt(N / Math.PI)) + dt / 2;
      let W = 0,
        perNear = 0;
      for (let i = 0; i < count; i++) {
        const d = (t[i]! - tr) * s; // > 0 on the narrow side
        if (d < -dt / 2 && d >= -win) W = Math.max(W, A[i]!);
        if (d > dt / 2 && d <= 2.5 * dt) perNear = Math.max(perNear, per[i]!);
      }
      if (!(W > 0)) continue;
      const score = N / W;
      // Equal within rounding (4 / 36 comes out 0.1111111111111111 on one axis and …12 on
      // another) keeps the earlier axis: a world axis before a tilted principal one.
      if (score >= L.step || (best && score >= best.score - 1e-12)) continue;
      if (R < RING_SHARE * perNear) continue;
      if (necks.some((c) => touchesBeyond(m, c, n, tr, s, dt / 2, 1e-5 * ext + 1e-9))) continue;
      // Just inside the narrow side: a plane through a face of the wide side (a box on a
      // box) would leave a folded zero-thickness sheet on the cut.
      best = { n, t: tr + s * 2e-5 * ext, score };
    }
  }
  return best;
}

/**
 * Recursively cuts the pieces at necks under the level's threshold and at creases under
 * its step threshold; when neither was found anywhere, halves the largest pieces until
 * the level's minimum count. Returns the final pieces.
 */
export function structuralSplit<P>(pieces: P[], level: SplitJob["level"], ops: PieceOps<P>): P[] {
  const L = LEVELS[level];
  const done: P[] = [];
  const queue = [...pieces];
  const total = pieces.reduce((s, p) => s + ops.size(p), 0);
  /** Neck cuts each piece came from (stubs of these are not creases). */
  const necksOf = new Map<P, CutPlane[]>();
  let structural = false;
  while (queue.length) {
    const p = queue.shift()!;
    if (done.length + queue.length + 1 >= L.maxParts || ops.size(p) < total * L.minSide) {
      done.push(p);
      continue;
    }
    const mesh = ops.mesh(p);
    const necks = necksOf.get(p) ?? [];
    let neck = bestNeckCut(mesh, L.minSide);
    if (neck && neck.score >= L.threshold) neck = null;
    const crease = bestCreaseCut(mesh, L, necks);
    // Both are section ratios: the more pronounced one first (a table's top between its
    // legs is a shallow neck, the ring under the top a sharp crease).
    const isNeck = !!neck && (!crease || neck.score <= crease.score);
    const cut = isNeck ? neck : crease;
    if (!cut) {
      done.push(p);
      continue;
    }
    const parts = ops.cut(p, cut.n, cut.t);
    if (parts.length < 2) {
      done.push(p);
      continue;
    }
    structural = true;
    for (const q of parts) necksOf.set(q, isNeck ? [...necks, cut] : necks);
    queue.push(...parts);
  }
  while (!structural && done.length < L.minParts) {
    let big = 0;
    for (let i = 1; i < done.length; i++) if (ops.size(done[i]!) > ops.size(done[big]!)) big = i;
    const p = done[big];
    if (p === undefined) break;
    // Halve by volume across the principal axis.
    const mesh = ops.mesh(p);
    const { centroid, axes } = principalAxes(mesh);
    const n = axes[0]!;
    const pr = areaProfile(mesh, n, 256, centroid);
    const total = pr.area.reduce((a, x) => a + x, 0);
    let acc = 0,
      j = 0;
    while (j < pr.area.length - 1 && acc + pr.area[j]! < total / 2) acc += pr.area[j++]!;
    const t = pr.t[j]! - pr.dt / 2 + (pr.dt * (total / 2 - acc)) / Math.max(pr.area[j]!, 1e-12);
    const parts = ops.cut(p, n, t);
    if (parts.length < 2) break;
    done.splice(big, 1, ...parts);
  }
  return done;
}
