/**
 * Brings a closed mesh to a triangle target (the API's `face`): Loop subdivision while
 * it is under, then meshoptimizer's simplifier down to the target when it is over. The
 * result has between (1 - FACE_TOLERANCE) and (1 + FACE_TOLERANCE) times the target.
 */
import { MeshoptSimplifier } from "meshoptimizer";
import { checkManifold } from "./mesh-ops";

/** Allowed relative deviation from the target. */
export const FACE_TOLERANCE = 0.1;

export interface IndexedMesh {
  positions: Float32Array;
  indices: Uint32Array;
}

/** Unique neighbours of every vertex, sorted, as CSR. */
function uniqueNeighbours(nv: number, indices: Uint32Array): { start: Uint32Array; list: Uint32Array } {
  const deg = new Uint32Array(nv + 1);
  for (let i = 0; i < indices.length; i++) deg[indices[i]!]! += 2;
  const raw = new Uint32Array(nv + 1);
  for (let v = 0; v < nv; v++) raw[v + 1] = raw[v]! + deg[v]!;
  const fill = raw.slice(0, nv);
  const all = new Uint32Array(raw[nv]!);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]!,
      b = indices[t + 1]!,
      c = indices[t + 2]!;
    all[fill[a]!++] = b;
    all[fill[a]!++] = c;
    all[fill[b]!++] = c;
    all[fill[b]!++] = a;
    all[fill[c]!++] = a;
    all[fill[c]!++] = b;
  }
  const start = new Uint32Array(nv + 1);
  const list = new Uint32Array(all.length);
  let k = 0;
  for (let v = 0; v < nv; v++) {
    start[v] = k;
    const seg = all.subarray(raw[v]!, raw[v + 1]!).sort();
    for (let i = 0; i < seg.length; i++) if (i === 0 || seg[i] !== seg[i - 1]) list[k++] = seg[i]!;
  }
  start[nv] = k;
  return { start, list: list.subarray(0, k) };
}

/**
 * One step of Loop subdivision: every triangle becomes four; new edge points are
 * 3/8 (a + b) + 1/8 (c + d), old points move by Loop's (Warren's) weights. Boundary
 * edges (used once) get midpoints and their ends stay, so open meshes work too.
 */
export function loopSubdivide(mesh: IndexedMesh): IndexedMesh {
  const { positions: P, indices: I } = mesh;
  const nv = P.length / 3,
    nt = I.length / 3;
  const { start, list } = uniqueNeighbours(nv, I);
  // Edge ids: for vertex a, its neighbours b > a in sorted order.
  const edgeBase = new Uint32Array(nv + 1);
  for (let a = 0; a < nv; a++) {
    let n = 0;
    for (let k = start[a]!; k < start[a + 1]!; k++) if (list[k]! > a) n++;
    edgeBase[a + 1] = edgeBase[a]! + n;
  }
  const ne = edgeBase[nv]!;
  const edgeOf = (a: number, b: number): number => {
    if (a > b) {
      const s = a;
      a = b;
      b = s;
    }
    let id = edgeBase[a]!;
    for (let k = start[a]!; k < start[a + 1]!; k++) {
      const n = list[k]!;
      if (n <= a) continue;
      if (n === b) return id;
      id++;
    }
    throw new Error("edge not found");
  };
  const opp = new Float64Array(ne * 3);
  const uses = new Uint8Array(ne);
  const triEdges = new Uint32Array(nt * 3);
  for (let t = 0; t < nt; t++) {
    for (let e = 0; e < 3; e++) {
      const a = I[t * 3 + e]!,
        b = I[t * 3 + ((e + 1) % 3)]!,
        c = I[t * 3 + ((e + 2) % 3)]! * 3;
      const id = edgeOf(a, b);
      triEdges[t * 3 + e] = id;
      opp[id * 3] = opp[id * 3]! + P[c]!;
      opp[id * 3 + 1] = opp[id * 3 + 1]! + P[c + 1]!;
      opp[id * 3 + 2] = opp[id * 3 + 2]! + P[c + 2]!;
      if (uses[id]! < 255) uses[id]!++;
    }
  }
  const out = new Float32Array((nv + ne) * 3);
  const boundary = new Uint8Array(nv);
  for (let a = 0; a < nv; a++) {
    let id = edgeBase[a]!;
    for (let k = start[a]!; k < start[a + 1]!; k++) {
      const b = list[k]!;
      if (b <= a) continue;
      const o = (nv + id) * 3;
      if (uses[id] === 2) {
        for (let c = 0; c < 3; c++) out[o + c] = 0.375 * (P[a * 3 + c]! + P[b * 3 + c]!) + 0.125 * opp[id * 3 + c]!;
      } else {
        for (let c = 0; c < 3; c++) out[o + c] = 0.5 * (P[a * 3 + c]! + P[b * 3 + c]!);
        boundary[a] = boundary[b] = 1;
      }
      id++;
    }
  }
  for (let v = 0; v < nv; v++) {
    const n = start[v + 1]! - start[v]!;
    if (boundary[v] || n < 3) {
      out[v * 3] = P[v * 3]!;
      out[v * 3 + 1] = P[v * 3 + 1]!;
      out[v * 3 + 2] = P[v * 3 + 2]!;
      continue;
    }
    const beta = n === 3 ? 3 / 16 : 3 / (8 * n);
    let sx = 0,
      sy = 0,
      sz = 0;
    for (let k = start[v]!; k < start[v + 1]!; k++) {
      const u = list[k]! * 3;
      sx += P[u]!;
      sy += P[u + 1]!;
      sz += P[u + 2]!;
    }
    const w = 1 - n * beta;
    out[v * 3] = w * P[v * 3]! + beta * sx;
    out[v * 3 + 1] = w * P[v * 3 + 1]! + beta * sy;
    out[v * 3 + 2] = w * P[v * 3 + 2]! + beta * sz;
  }
  const idx = new Uint32Array(nt * 12);
  for (let t = 0; t < nt; t++) {
    const a = I[t * 3]!,
      b = I[t * 3 + 1]!,
      c = I[t * 3 + 2]!;
    const ab = nv + triEdges[t * 3]!,
      bc = nv + triEdges[t * 3 + 1]!,
      ca = nv + triEdges[t * 3 + 2]!;
    idx.set([a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca], t * 12);
  }
  return { positions: out, indices: idx };
}

/** Drops unreferenced vertices, renumbering in first-use order. */
export function compactMesh(mesh: IndexedMesh): IndexedMesh {
  const nv = mesh.positions.length / 3;
  const remap = new Int32Array(nv).fill(-1);
  const idx = new Uint32Array(mesh.indices.length);
  let n = 0;
  for (let i = 0; i < idx.length; i++) {
    const v = mesh.indices[i]!;
    if (remap[v]! < 0) remap[v] = n++;
    idx[i] = remap[v]!;
  }
  const pos = new Float32Array(n * 3);
  for (let v = 0; v < nv; v++) {
    const r = remap[v]!;
    if (r >= 0) {
      pos[r * 3] = mesh.positions[v * 3]!;
      pos[r * 3 + 1] = mesh.positions[v * 3 + 1]!;
      pos[r * 3 + 2] = mesh.positions[v * 3 + 2]!;
    }
  }
  return { positions: pos, indices: idx };
}

/**
 * Simplifies to `target` triangles (or slightly fewer). A generous error bound lets the
 * simplifier always reach the count; positions are re-placed optimally (simplifyWithUpdate).
 * The simplifier can pinch a closed mesh (an edge shared by four triangles); when the
 * input was closed and the output is not, it retries with regularisation and, failing
 * that, returns null.
 */
export async function simplifyTo(mesh: IndexedMesh, target: number): Promise<IndexedMesh | null> {
  await MeshoptSimplifier.ready;
  const wasClosed = checkManifold(mesh.indices).closed;
  for (const flags of [[], ["Regularize"]] as const) {
    const indices = Uint32Array.from(mesh.indices);
    const positions = Float32Array.from(mesh.positions);
    const [count] = MeshoptSimplifier.simplifyWithUpdate(indices, positions, 3, new Float32Array(0), 0, [], null, target * 3, 1, [
      ...flags,
    ]);
    const out = compactMesh({ positions, indices: indices.subarray(0, count) });
    if (!wasClosed || checkManifold(out.indices).closed) return out;
  }
  return null;
}

const within = (n: number, target: number, tolerance: number) => n >= (1 - tolerance) * target && n <= (1 + tolerance) * target;

/**
 * Subdivides while under (1 - tolerance) * target, then simplifies when over
 * (1 + tolerance) * target. When simplifying would break a closed mesh, the closed
 * subdivided mesh is returned as it is (closedness outranks the count).
 */
export async function fitTriangleCount(mesh: IndexedMesh, target: number, tolerance = FACE_TOLERANCE): Promise<IndexedMesh> {
  let m = mesh;
  while (m.indices.length / 3 < (1 - tolerance) * target) m = loopSubdivide(m);
  if (m.indices.length / 3 > (1 + tolerance) * target) m = (await simplifyTo(m, target)) ?? m;
  return m;
}

export interface GridPlan {
  /** The grid the resolution asks for (cells across the longest side). */
  cells: number;
  /** How far the grid may move to land on the target: [min, max] cells. */
  minCells: number;
  maxCells: number;
}

/**
 * Builds a grid mesh with `build(cells)` and reaches `target` triangles, preferring
 * exact arithmetic over simplification: with k Loop steps multiplying the count by 4^k,
 * it looks for k and a grid near `plan.cells` whose base mesh lands within tolerance of
 * target / 4^k (the triangle count of a grid mesh grows with the square of the cells).
 * Only when no grid in [minCells, maxCells] lands there does it simplify.
 */
export async function meshForTarget(
  build: (cells: number) => IndexedMesh,
  plan: GridPlan,
  target: number,
  tolerance = FACE_TOLERANCE,
): Promise<IndexedMesh> {
  const tried = new Map<number, IndexedMesh>();
  const at = (cells: number): IndexedMesh => {
    const c = Math.round(Math.min(plan.maxCells, Math.max(plan.minCells, cells)));
    let m = tried.get(c);
    if (!m) {
      m = build(c);
      tried.set(c, m);
    }
    return m;
  };
  const natural = at(plan.cells).indices.length / 3;
  if (natural === 0) return at(plan.cells);
  // The number of Loop steps whose base count is nearest the natural one (in log terms).
  const k = Math.max(0, Math.round(Math.log(target / natural) / Math.log(4)));
  const goal = target / 4 ** k;
  let cells = plan.cells,
    base = at(cells);
  // Always land at or slightly under the goal's upper limit.
  for (let i = 0; i < 5 && !within(base.indices.length / 3, goal, tolerance * 0.8); i++) {
    const n = base.indices.length / 3;
    const next = Math.round(Math.min(plan.maxCells, Math.max(plan.minCells, cells * Math.sqrt(goal / n))));
    if (next === cells) break;
    cells = next;
    base = at(cells);
  }
  let m = base;
  for (let i = 0; i < k; i++) m = loopSubdivide(m);
  return fitTriangleCount(m, target, tolerance);
}
