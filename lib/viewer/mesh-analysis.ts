/**
 * Printability figures of a triangle mesh, pure and in model units: vertices welded by exact
 * position, open (boundary) edges used by one triangle, non-manifold edges used by more than
 * two, separate shells (union-find over the welded vertices), the enclosed volume (divergence
 * theorem: the sum of the signed tetrahedra from the origin) and the surface area. Degenerate
 * triangles (two corners welded together) are skipped: quantised display copies can collapse
 * a sliver without opening the surface. Runs in a worker for large models (mesh-analysis.worker.ts).
 */

export interface MeshInput {
  /** x, y, z per vertex. */
  positions: Float32Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
}

export interface MeshAnalysis {
  /** Triangles counted (degenerate ones left out). */
  triangles: number;
  /** Distinct vertex positions. */
  vertices: number;
  boundaryEdges: number;
  nonManifoldEdges: number;
  shells: number;
  /** Enclosed volume in model units³ (meaningful when watertight); positive for outward-facing triangles. */
  volume: number;
  /** Surface area in model units². */
  area: number;
  min: [number, number, number];
  max: [number, number, number];
}

/** MurmurHash3's finaliser: float bits keep their low bits zero, so they need mixing. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Welds vertices with bit-identical positions: the welded id of every vertex, and how many there are. */
export function weldByPosition(positions: Float32Array): { ids: Uint32Array; count: number } {
  const n = Math.floor(positions.length / 3);
  const f = new Float32Array(n * 3);
  // +0 turns -0 into 0, so the two compare equal as bits too.
  for (let i = 0; i < n * 3; i++) f[i] = (positions[i] ?? 0) + 0;
  const bits = new Uint32Array(f.buffer);
  let size = 1;
  while (size < n * 2) size <<= 1;
  const table = new Int32Array(size).fill(-1);
  const ids = new Uint32Array(n);
  // First vertex of each welded id, to compare against.
  const first = new Uint32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const a = bits[i * 3] ?? 0,
      b = bits[i * 3 + 1] ?? 0,
      c = bits[i * 3 + 2] ?? 0;
    let slot = fmix(a ^ Math.imul(b, 0x9e3779b1) ^ Math.imul(c, 0x85ebca77)) & (size - 1);
    for (;;) {
      const id = table[slot] ?? -1;
      if (id < 0) {
        table[slot] = count;
        first[count] = i;
        ids[i] = count++;
        break;
      }
      const j = (first[id] ?? 0) * 3;
      if (bits[j] === a && bits[j + 1] === b && bits[j + 2] === c) {
        ids[i] = id;
        break;
      }
      slot = (slot + 1) & (size - 1);
    }
  }
  return { ids, count };
}

function find(parent: Uint32Array, x: number): number {
  let root = x;
  while ((parent[root] ?? root) !== root) root = parent[root] ?? root;
  while (x !== root) {
    const next = parent[x] ?? root;
    parent[x] = root;
    x = next;
  }
  return root;
}

/** Sorts `a[from..to)` in place: insertion sort for the few edges a vertex usually has, the native sort beyond. */
function sortRange(a: Uint32Array, from: number, to: number): void {
  if (to - from > 32) {
    a.subarray(from, to).sort();
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const x = a[i] ?? 0;
    let j = i - 1;
    while (j >= from && (a[j] ?? 0) > x) {
      a[j + 1] = a[j] ?? 0;
      j--;
    }
    a[j + 1] = x;
  }
}

/**
 * Watertightness, manifoldness, shells, volume, area and bounds of a triangle mesh. Edges are
 * counted over typed arrays: each undirected edge is filed under its lower welded vertex (a
 * counting sort into one flat list), so an edge's uses sit side by side within its vertex's few.
 */
export function analyseMesh({ positions, indices }: MeshInput): MeshAnalysis {
  const { ids, count } = weldByPosition(positions);
  const triCount = Math.floor(indices.length / 3);
  const parent = new Uint32Array(count);
  for (let v = 0; v < count; v++) parent[v] = v;
  // start[v + 1] counts the edges whose lower vertex is v (then the prefix sums: where v's edges start).
  const start = new Uint32Array(count + 1);
  // The welded corners of the triangles kept (degenerate ones left out).
  const kept = new Uint32Array(triCount * 3);
  let triangles = 0,
    volume = 0,
    area = 0;
  let minX = Infinity,
    minY = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    maxZ = -Infinity;
  for (let t = 0; t < triCount; t++) {
    const i0 = indices[t * 3] ?? 0,
      i1 = indices[t * 3 + 1] ?? 0,
      i2 = indices[t * 3 + 2] ?? 0;
    const a = ids[i0] ?? 0,
      b = ids[i1] ?? 0,
      c = ids[i2] ?? 0;
    if (a === b || b === c || a === c) continue;
    kept[triangles * 3] = a;
    kept[triangles * 3 + 1] = b;
    kept[triangles * 3 + 2] = c;
    triangles++;
    const ab = (a < b ? a : b) + 1,
      bc = (b < c ? b : c) + 1,
      ac = (a < c ? a : c) + 1;
    start[ab] = (start[ab] ?? 0) + 1;
    start[bc] = (start[bc] ?? 0) + 1;
    start[ac] = (start[ac] ?? 0) + 1;
    const ra = find(parent, a),
      rb = find(parent, b);
    parent[rb] = ra;
    parent[find(parent, c)] = ra;
    const ax = positions[i0 * 3] ?? 0,
      ay = positions[i0 * 3 + 1] ?? 0,
      az = positions[i0 * 3 + 2] ?? 0;
    const bx = positions[i1 * 3] ?? 0,
      by = positions[i1 * 3 + 1] ?? 0,
      bz = positions[i1 * 3 + 2] ?? 0;
    const cx = positions[i2 * 3] ?? 0,
      cy = positions[i2 * 3 + 1] ?? 0,
      cz = positions[i2 * 3 + 2] ?? 0;
    // Signed tetrahedron (origin, a, b, c): a · (b × c) / 6.
    volume += (ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)) / 6;
    const ux = bx - ax,
      uy = by - ay,
      uz = bz - az,
      wx = cx - ax,
      wy = cy - ay,
      wz = cz - az;
    const nx = uy * wz - uz * wy,
      ny = uz * wx - ux * wz,
      nz = ux * wy - uy * wx;
    area += Math.sqrt(nx * nx + ny * ny + nz * nz) / 2;
    minX = Math.min(minX, ax, bx, cx);
    minY = Math.min(minY, ay, by, cy);
    minZ = Math.min(minZ, az, bz, cz);
    maxX = Math.max(maxX, ax, bx, cx);
    maxY = Math.max(maxY, ay, by, cy);
    maxZ = Math.max(maxZ, az, bz, cz);
  }
  for (let v = 0; v < count; v++) start[v + 1] = (start[v + 1] ?? 0) + (start[v] ?? 0);
  // Each edge's higher vertex, filed under its lower one.
  const higher = new Uint32Array(triangles * 3);
  const fill = start.slice(0, count);
  const file = (p: number, q: number) => {
    const lo = p < q ? p : q;
    const at = fill[lo] ?? 0;
    higher[at] = p < q ? q : p;
    fill[lo] = at + 1;
  };
  for (let t = 0; t < triangles * 3; t += 3) {
    const a = kept[t] ?? 0,
      b = kept[t + 1] ?? 0,
      c = kept[t + 2] ?? 0;
    file(a, b);
    file(b, c);
    file(a, c);
  }
  let boundaryEdges = 0,
    nonManifoldEdges = 0,
    shells = 0;
  for (let v = 0; v < count; v++) {
    const from = start[v] ?? 0,
      to = start[v + 1] ?? 0;
    sortRange(higher, from, to);
    for (let i = from; i < to;) {
      let j = i + 1;
      while (j < to && higher[j] === higher[i]) j++;
      if (j - i === 1) boundaryEdges++;
      else if (j - i > 2) nonManifoldEdges++;
      i = j;
    }
  }
  // A vertex some kept triangle uses, and the root of its set: one shell.
  const used = new Uint8Array(count);
  for (let k = 0; k < triangles * 3; k++) used[kept[k] ?? 0] = 1;
  for (let v = 0; v < count; v++) if (used[v] && find(parent, v) === v) shells++;
  const min: [number, number, number] = triangles ? [minX, minY, minZ] : [0, 0, 0];
  const max: [number, number, number] = triangles ? [maxX, maxY, maxZ] : [0, 0, 0];
  return { triangles, vertices: count, boundaryEdges, nonManifoldEdges, shells, volume, area, min, max };
}
