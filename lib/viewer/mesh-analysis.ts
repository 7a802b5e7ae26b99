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

/** Watertightness, manifoldness, shells, volume, area and bounds of a triangle mesh. */
export function analyseMesh({ positions, indices }: MeshInput): MeshAnalysis {
  const { ids, count } = weldByPosition(positions);
  const triCount = Math.floor(indices.length / 3);
  // Undirected edges as one number each (low * count + high, exact below 2^53), sorted so
  // each edge's uses sit side by side.
  const edges = new Float64Array(triCount * 3);
  const parent = new Uint32Array(count);
  for (let v = 0; v < count; v++) parent[v] = v;
  const used = new Uint8Array(count);
  let e = 0,
    triangles = 0,
    volume = 0,
    area = 0;
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let t = 0; t < triCount; t++) {
    const i0 = indices[t * 3] ?? 0,
      i1 = indices[t * 3 + 1] ?? 0,
      i2 = indices[t * 3 + 2] ?? 0;
    const a = ids[i0] ?? 0,
      b = ids[i1] ?? 0,
      c = ids[i2] ?? 0;
    if (a === b || b === c || a === c) continue;
    triangles++;
    edges[e++] = a < b ? a * count + b : b * count + a;
    edges[e++] = b < c ? b * count + c : c * count + b;
    edges[e++] = a < c ? a * count + c : c * count + a;
    used[a] = used[b] = used[c] = 1;
    const ra = find(parent, a),
      rb = find(parent, b),
      rc = find(parent, c);
    parent[rb] = ra;
    parent[find(parent, rc)] = ra;
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
    area += Math.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx) / 2;
    for (const [x, y, z] of [
      [ax, ay, az],
      [bx, by, bz],
      [cx, cy, cz],
    ] as const) {
      if (x < min[0]) min[0] = x;
      if (y < min[1]) min[1] = y;
      if (z < min[2]) min[2] = z;
      if (x > max[0]) max[0] = x;
      if (y > max[1]) max[1] = y;
      if (z > max[2]) max[2] = z;
    }
  }
  const sorted = edges.subarray(0, e).sort();
  let boundaryEdges = 0,
    nonManifoldEdges = 0;
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && sorted[j] === sorted[i]) j++;
    if (j - i === 1) boundaryEdges++;
    else if (j - i > 2) nonManifoldEdges++;
    i = j;
  }
  let shells = 0;
  for (let v = 0; v < count; v++) if (used[v] && find(parent, v) === v) shells++;
  if (!triangles) {
    min.fill(0);
    max.fill(0);
  }
  return { triangles, vertices: count, boundaryEdges, nonManifoldEdges, shells, volume, area, min, max };
}
