/**
 * General (structural) split: connected pieces first, then every piece is cut at thin
 * necks, recursively. A neck is a local minimum of the cross-section area along one of
 * the piece's principal (PCA) axes that is small compared with the largest section on
 * each side: score = area(neck) / min(max area before, max area after). `level` sets the
 * score threshold (low 0.25, medium 0.5, high 0.8) and the smallest share of the piece
 * each side must hold, so low finds only pronounced necks and high also shallow ones.
 * Models without enough structure are halved (by volume) across their principal axis,
 * largest part first, up to a minimum part count (2 / 3 / 4).
 *
 * Section areas come from one pass over the triangles per axis (Green's theorem on the
 * oriented intersection segments, no loop assembly), so the analysis is linear in the
 * triangle count. The same recursion runs on manifold-3d solids (plane splits give
 * closed halves) and on triangle soups (clipped triangle by triangle, open parts).
 */
import type { SplitJob } from "./job";

export type Vec3 = [number, number, number];

export interface LevelParams { threshold: number; minSide: number; minParts: number; maxParts: number }
export const LEVELS: Record<SplitJob["level"], LevelParams> = {
  low: { threshold: 0.25, minSide: 0.06, minParts: 2, maxParts: 8 },
  medium: { threshold: 0.5, minSide: 0.03, minParts: 3, maxParts: 16 },
  high: { threshold: 0.8, minSide: 0.015, minParts: 4, maxParts: 32 },
};

export interface TriMesh { positions: Float32Array | Float64Array; indices: Uint32Array }

/** Area-weighted centroid and principal axes (largest variance first) of a surface. */
export function principalAxes(m: TriMesh): { centroid: Vec3; axes: Vec3[] } {
  const { positions: p, indices: ix } = m;
  let W = 0;
  const c: Vec3 = [0, 0, 0];
  const S = [0, 0, 0, 0, 0, 0]; // xx yy zz xy xz yz
  for (let t = 0; t < ix.length; t += 3) {
    const a = ix[t]! * 3, b = ix[t + 1]! * 3, d = ix[t + 2]! * 3;
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const vx = p[d]! - p[a]!, vy = p[d + 1]! - p[a + 1]!, vz = p[d + 2]! - p[a + 2]!;
    const w = Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) + 1e-12;
    const x = p[a]! + p[b]! + p[d]!, y = p[a + 1]! + p[b + 1]! + p[d + 1]!, z = p[a + 2]! + p[b + 2]! + p[d + 2]!;
    W += w; c[0] += (w * x) / 3; c[1] += (w * y) / 3; c[2] += (w * z) / 3;
    // Exact second moments of the triangle: (sum v v^T + s s^T) / 12.
    const m = (i: number, j: number) => p[a + i]! * p[a + j]! + p[b + i]! * p[b + j]! + p[d + i]! * p[d + j]!;
    const k = w / 12;
    S[0]! += k * (m(0, 0) + x * x); S[1]! += k * (m(1, 1) + y * y); S[2]! += k * (m(2, 2) + z * z);
    S[3]! += k * (m(0, 1) + x * y); S[4]! += k * (m(0, 2) + x * z); S[5]! += k * (m(1, 2) + y * z);
  }
  if (W === 0) return { centroid: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] };
  c[0] /= W; c[1] /= W; c[2] /= W;
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
  const V = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const g = (r: number[][], i: number, j: number) => r[i]![j]!;
  for (let sweep = 0; sweep < 30; sweep++) {
    const off = Math.abs(g(A, 0, 1)) + Math.abs(g(A, 0, 2)) + Math.abs(g(A, 1, 2));
    if (off < 1e-14 * (Math.abs(g(A, 0, 0)) + Math.abs(g(A, 1, 1)) + Math.abs(g(A, 2, 2)) + 1e-30)) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]] as const) {
      const apq = g(A, p, q);
      if (Math.abs(apq) < 1e-300) continue;
      const theta = (g(A, q, q) - g(A, p, p)) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const cs = 1 / Math.sqrt(t * t + 1), sn = t * cs;
      for (let k = 0; k < 3; k++) {
        const akp = g(A, k, p), akq = g(A, k, q);
        A[k]![p] = cs * akp - sn * akq; A[k]![q] = sn * akp + cs * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = g(A, p, k), aqk = g(A, q, k);
        A[p]![k] = cs * apk - sn * aqk; A[q]![k] = sn * apk + cs * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = g(V, k, p), vkq = g(V, k, q);
        V[k]![p] = cs * vkp - sn * vkq; V[k]![q] = sn * vkp + cs * vkq;
      }
    }
  }
  return [0, 1, 2].sort((i, j) => g(A, j, j) - g(A, i, i)).map((i): Vec3 => [g(V, 0, i), g(V, 1, i), g(V, 2, i)]);
}

export interface Profile {
  /** Plane offsets (n . x = t) of the slices, evenly spaced inside the piece's extent. */
  t: Float64Array;
  area: Float64Array;
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
  let lo = Infinity, hi = -Infinity;
  for (let v = 0; v < nv; v++) {
    const x = n[0] * p[v * 3]! + n[1] * p[v * 3 + 1]! + n[2] * p[v * 3 + 2]!;
    d[v] = x; if (x < lo) lo = x; if (x > hi) hi = x;
  }
  const dt = (hi - lo) / count;
  const t = Float64Array.from({ length: count }, (_, j) => lo + (j + 0.5) * dt);
  const area = new Float64Array(count);
  if (!(dt > 0)) return { t, area, dt };
  const pt = (a: number, b: number, level: number, out: number[]) => {
    const f = (level - d[a]!) / (d[b]! - d[a]!);
    for (let k = 0; k < 3; k++) out[k] = p[a * 3 + k]! - origin[k]! + f * (p[b * 3 + k]! - p[a * 3 + k]!);
  };
  const P = [0, 0, 0], Q = [0, 0, 0];
  for (let tri = 0; tri < ix.length; tri += 3) {
    const v0 = ix[tri]!, v1 = ix[tri + 1]!, v2 = ix[tri + 2]!;
    const d0 = d[v0]!, d1 = d[v1]!, d2 = d[v2]!;
    const mn = Math.min(d0, d1, d2), mx = Math.max(d0, d1, d2);
    const j0 = Math.max(0, Math.ceil((mn - lo) / dt - 0.5)), j1 = Math.min(count - 1, Math.floor((mx - lo) / dt - 0.5));
    for (let j = j0; j <= j1; j++) {
      const level = t[j]!;
      let up = false, down = false;
      for (const [a, b] of [[v0, v1], [v1, v2], [v2, v0]] as const) {
        const da = d[a]!, db = d[b]!;
        if (da < level && db >= level) { pt(a, b, level, P); up = true; }
        else if (da >= level && db < level) { pt(a, b, level, Q); down = true; }
      }
      if (!up || !down) continue;
      const cx = P[1]! * Q[2]! - P[2]! * Q[1]!, cy = P[2]! * Q[0]! - P[0]! * Q[2]!, cz = P[0]! * Q[1]! - P[1]! * Q[0]!;
      area[j] = area[j]! + 0.5 * (cx * n[0] + cy * n[1] + cz * n[2]);
    }
  }
  for (let j = 0; j < count; j++) area[j] = Math.abs(area[j]!);
  return { t, area, dt };
}

export interface Neck { t: number; score: number }

/** The strongest neck of a profile (see the file comment), or null. */
export function findNeck(pr: Profile, minSide: number): Neck | null {
  const A = pr.area, n = A.length;
  if (n < 5) return null;
  const total = A.reduce((s, x) => s + x, 0);
  if (!(total > 0)) return null;
  const L = new Float64Array(n), R = new Float64Array(n), cum = new Float64Array(n + 1);
  for (let j = 1; j < n; j++) L[j] = Math.max(L[j - 1]!, A[j - 1]!);
  for (let j = n - 2; j >= 0; j--) R[j] = Math.max(R[j + 1]!, A[j + 1]!);
  for (let j = 0; j < n; j++) cum[j + 1] = cum[j]! + A[j]!;
  const score = new Float64Array(n).fill(Infinity);
  let best = -1;
  for (let j = 1; j < n - 1; j++) {
    if (cum[j]! < minSide * total || total - cum[j + 1]! < minSide * total) continue;
    score[j] = A[j]! / Math.max(1e-12, Math.min(L[j]!, R[j]!));
    if (best < 0 || score[j]! < score[best]!) best = j;
  }
  if (best < 0 || score[best]! >= 1) return null;
  // A neck of constant section (a bar): cut in the middle of its run.
  const tol = score[best]! * 1.05 + 0.01;
  let j0 = best, j1 = best;
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

export interface CutPlane { n: Vec3; t: number; score: number }

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

/**
 * Recursively cuts the pieces at necks under the level's threshold, then halves the
 * largest ones until the level's minimum count. Returns the final pieces.
 */
export function structuralSplit<P>(pieces: P[], level: SplitJob["level"], ops: PieceOps<P>): P[] {
  const L = LEVELS[level];
  const done: P[] = [];
  const queue = [...pieces];
  const total = pieces.reduce((s, p) => s + ops.size(p), 0);
  while (queue.length) {
    const p = queue.shift()!;
    if (done.length + queue.length + 1 >= L.maxParts || ops.size(p) < total * L.minSide) { done.push(p); continue; }
    const cut = bestNeckCut(ops.mesh(p), L.minSide);
    if (!cut || cut.score >= L.threshold) { done.push(p); continue; }
    const parts = ops.cut(p, cut.n, cut.t);
    if (parts.length < 2) { done.push(p); continue; }
    queue.push(...parts);
  }
  while (done.length < L.minParts) {
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
    let acc = 0, j = 0;
    while (j < pr.area.length - 1 && acc + pr.area[j]! < total / 2) acc += pr.area[j++]!;
    const t = pr.t[j]! - pr.dt / 2 + (pr.dt * (total / 2 - acc)) / Math.max(pr.area[j]!, 1e-12);
    const parts = ops.cut(p, n, t);
    if (parts.length < 2) break;
    done.splice(big, 1, ...parts);
  }
  return done;
}
