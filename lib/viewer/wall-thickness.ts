/**
 * Wall thickness per triangle: a ray from the triangle's centre straight into the solid (against
 * its normal) to the first wall it leaves through (a triangle facing the same way), searched in
 * the model's spatial index (mesh-index.ts, a three-mesh-bvh tree) walked nearest box first and
 * cut off at the best hit so far. Only distances up to `maxDistance` are looked for (thin walls
 * are what matters; a longer walk costs time for nothing); farther or no wall is Infinity,
 * degenerate triangles NaN. Runs in the analysis worker.
 *
 * A ray starts inside its own triangle's leaf, so it walks from that leaf up: at each ancestor it
 * walks the other child's subtree (if the ray meets its box before the best hit so far), nearest
 * boxes first. That skips the boxes on the way down from the root that every ray starts inside
 * (a third fewer box tests than walking down from the root, about 15% less time at 2M triangles).
 */
import type { MeshBVH } from "three-mesh-bvh";
import { faceNormals } from "./face-normals";
import type { MeshInput } from "./mesh-analysis";
import { buildMeshIndex, meshIndexData } from "./mesh-index";
import { wasmWallSearch } from "./wall-walk";

/** Node layout of three-mesh-bvh (core/Constants.js, core/utils/nodeBufferUtils.js): 8 uint32 a node. */
const NODE = 8;
const LEAF = 0xffff;

/**
 * Each triangle's wall thickness in model units (Infinity beyond `maxDistance`, NaN when
 * degenerate), using `index` (built here when not given).
 */
export function wallThickness(input: MeshInput, maxDistance: number, index?: MeshBVH): Float32Array {
  const built = index ?? buildMeshIndex(input);
  const n = Math.floor(input.indices.length / 3);
  const inOrder = wallSearch(input, built)(maxDistance, 0, n);
  const { order } = meshIndexData(built);
  const walls = new Float32Array(n);
  for (let k = 0; k < n; k++) walls[order[k] ?? 0] = inOrder[k] ?? NaN;
  return walls;
}

/**
 * The wall thicknesses of the triangles at places `from` to `to` of the index's order
 * (meshIndexData's `order`), in that order: two workers share a model's rays this way, each
 * walking neighbouring triangles one after the other (far faster than the file's order when that
 * order jumps about the model).
 */
export function wallThicknessInOrder(input: MeshInput, maxDistance: number, index: MeshBVH, from: number, to: number): Float32Array {
  return wallSearch(input, index)(maxDistance, from, to);
}

/** wallThicknessInOrder of one model and index, asked for stretch after stretch. */
export type WallSearch = (maxDistance: number, from: number, to: number) => Float32Array;

/** Unit normals of `input`'s triangles (zero for degenerate ones), as wallSearch takes them. */
export function triangleNormals({ positions, indices }: MeshInput): Float32Array {
  return faceNormals(positions, indices);
}

/** One root of the index, with the links the walk up needs. */
interface Tree {
  f32: Float32Array;
  u32: Uint32Array;
  u16: Uint16Array;
  /** Each node's parent (node numbers: offset / 8); the root's is 0. */
  parent: Uint32Array;
  /** The leaf (its offset) of each place of the order from `from` to `to`. */
  leafOf: Uint32Array;
  from: number;
  to: number;
}

function linkTree(root: ArrayBuffer): Tree {
  const f32 = new Float32Array(root),
    u32 = new Uint32Array(root),
    u16 = new Uint16Array(root);
  const nodes = root.byteLength / 32;
  const parent = new Uint32Array(nodes);
  let from = Infinity,
    to = 0;
  for (let i = 0; i < nodes; i++) {
    const o = i * NODE;
    if (u16[o * 2 + 15] === LEAF) {
      const offset = u32[o + 6] ?? 0;
      from = Math.min(from, offset);
      to = Math.max(to, offset + (u16[o * 2 + 14] ?? 0));
      continue;
    }
    parent[i + 1] = i;
    parent[i + (u32[o + 6] ?? 0)] = i;
  }
  if (from > to) from = to;
  const leafOf = new Uint32Array(to - from);
  for (let i = 0; i < nodes; i++) {
    const o = i * NODE;
    if (u16[o * 2 + 15] !== LEAF) continue;
    const offset = u32[o + 6] ?? 0;
    leafOf.fill(o, offset - from, offset - from + (u16[o * 2 + 14] ?? 0));
  }
  return { f32, u32, u16, parent, leafOf, from, to };
}

// The model and tree a stretch walks: set by wallSearch's search before its rays (one stretch
// runs at a time on a thread), read by the walk's functions without passing them along.
let F: Float32Array = new Float32Array(0),
  U32: Uint32Array = new Uint32Array(0),
  U16: Uint16Array = new Uint16Array(0),
  P: Float32Array = new Float32Array(0),
  IDX: Uint32Array = new Uint32Array(0),
  ORDER: ArrayLike<number> = new Uint32Array(0),
  NORMALS: Float32Array = new Float32Array(0),
  EPS = 0;
// The walk's stack: node offsets and their entry distances (a tree is at most 64 deep here).
const STACK = new Uint32Array(256);
const ENTRY = new Float64Array(256);

/**
 * A search of `input`'s walls through `index` that works out what every stretch needs once: in
 * WebAssembly where the runtime has its SIMD (wall-walk.ts, equal bit for bit), else in
 * JavaScript (pass the triangles' unit normals when they are at hand).
 */
export function wallSearch(input: MeshInput, index: MeshBVH, normals?: Float32Array): WallSearch {
  return wasmWallSearch(input, index) ?? wallSearchInJs(input, index, normals);
}

/** wallSearch's walk in JavaScript (runtimes without WebAssembly SIMD, and the tests' reference). */
export function wallSearchInJs(input: MeshInput, index: MeshBVH, normals?: Float32Array): WallSearch {
  const { positions, indices } = input;
  const n = Math.floor(indices.length / 3);
  const { roots, order } = meshIndexData(index);
  const unit = normals ?? faceNormals(positions, indices);
  let size = 0;
  for (const root of roots) {
    const f = new Float32Array(root);
    size = Math.max(size, (f[3] ?? 0) - (f[0] ?? 0), (f[4] ?? 0) - (f[1] ?? 0), (f[5] ?? 0) - (f[2] ?? 0));
  }
  const eps = 1e-6 * size;
  const trees = roots.map(linkTree);
  return (maxDistance, from, to) => {
    const first = Math.max(0, Math.min(n, from)),
      end = Math.max(first, Math.min(n, to));
    const out = new Float32Array(end - first).fill(Infinity);
    if (first === end || !(maxDistance > 0)) return out;
    P = positions;
    IDX = indices;
    ORDER = order;
    NORMALS = unit;
    EPS = eps;
    // Rays in the index's order: one ray's nodes and triangles are the next one's too.
    for (let k = first; k < end; k++) {
      let best = maxDistance;
      for (const tree of trees) {
        F = tree.f32;
        U32 = tree.u32;
        U16 = tree.u16;
        best = cast(k, best, tree);
      }
      if (best < maxDistance) out[k - first] = best;
      else if (Number.isNaN(best)) out[k - first] = NaN;
    }
    return out;
  };
}

/**
 * The nearest wall of the ray of the triangle at place `k` in `tree` (F, U32, U16), nearer than
 * `best`, else `best`; NaN for a degenerate triangle.
 */
function cast(k: number, best: number, tree: Tree): number {
  const normals = NORMALS,
    p = P,
    indices = IDX;
  const t = ORDER[k]!;
  const dx = -normals[t * 3]!,
    dy = -normals[t * 3 + 1]!,
    dz = -normals[t * 3 + 2]!;
  if (dx === 0 && dy === 0 && dz === 0) return NaN;
  const a = indices[t * 3]! * 3,
    b = indices[t * 3 + 1]! * 3,
    c = indices[t * 3 + 2]! * 3;
  const ox = (p[a]! + p[b]! + p[c]!) / 3,
    oy = (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3,
    oz = (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3;
  const ix = 1 / dx,
    iy = 1 / dy,
    iz = 1 / dz;
  // By the inverse's sign: a −0 component gives −Infinity, and its near side is the max.
  const sx = ix < 0 ? 3 : 0,
    sy = iy < 0 ? 3 : 0,
    sz = iz < 0 ? 3 : 0;
  if (k < tree.from || k >= tree.to) {
    // Another root's triangles: walked from that root down.
    const e = enter(0, sx, sy, sz, ox, oy, oz, ix, iy, iz, best);
    return e <= best ? walk(0, e, t, best, ox, oy, oz, dx, dy, dz, ix, iy, iz, sx, sy, sz) : best;
  }
  const { parent } = tree;
  let node = tree.leafOf[k - tree.from]!;
  let nearest = walk(node, 0, t, best, ox, oy, oz, dx, dy, dz, ix, iy, iz, sx, sy, sz);
  while (node !== 0) {
    // node >>> 3: its number (a node is 8 uint32), as `parent` is indexed.
    const up = parent[node >>> 3]! * NODE;
    const other = up + NODE === node ? up + U32[up + 6]! * NODE : up + NODE;
    node = up;
    const e = enter(other, sx, sy, sz, ox, oy, oz, ix, iy, iz, nearest);
    if (e <= nearest) nearest = walk(other, e, t, nearest, ox, oy, oz, dx, dy, dz, ix, iy, iz, sx, sy, sz);
  }
  return nearest;
}

/**
 * Walks the subtree at node `start` (entered at `e`), nearest box first, for the nearest wall of
 * triangle `t`'s ray nearer than `best`; returns it, else `best`.
 */
function walk(
  start: number,
  e: number,
  t: number,
  best: number,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  ix: number,
  iy: number,
  iz: number,
  sx: number,
  sy: number,
  sz: number,
): number {
  const stack = STACK,
    entry = ENTRY,
    u16 = U16,
    u32 = U32,
    order = ORDER,
    normals = NORMALS;
  stack[0] = start;
  entry[0] = e;
  let top = 1;
  while (top > 0) {
    top--;
    if (entry[top]! > best) continue;
    const node = stack[top]!;
    if (u16[node * 2 + 15] === LEAF) {
      const offset = u32[node + 6]!,
        count = u16[node * 2 + 14]!;
      for (let q = offset; q < offset + count; q++) {
        const s = order[q]!;
        if (s === t) continue;
        // Only a wall facing the same way is where the ray leaves the solid.
        if (normals[s * 3]! * dx + normals[s * 3 + 1]! * dy + normals[s * 3 + 2]! * dz <= 0) continue;
        const hit = rayTriangle(s, ox, oy, oz, dx, dy, dz);
        if (hit > EPS && hit < best) best = hit;
      }
      continue;
    }
    // Both children's entry distances along the ray (slab test); the nearer is walked first.
    const left = node + NODE,
      right = node + u32[node + 6]! * NODE;
    const tl = enter(left, sx, sy, sz, ox, oy, oz, ix, iy, iz, best),
      tr = enter(right, sx, sy, sz, ox, oy, oz, ix, iy, iz, best);
    if (tl <= tr) {
      if (tr <= best) {
        stack[top] = right;
        entry[top++] = tr;
      }
      if (tl <= best) {
        stack[top] = left;
        entry[top++] = tl;
      }
    } else {
      if (tl <= best) {
        stack[top] = left;
        entry[top++] = tl;
      }
      if (tr <= best) {
        stack[top] = right;
        entry[top++] = tr;
      }
    }
  }
  return best;
}

/**
 * Where the ray enters the box of the node at `o` (of F) (0 when it starts inside), or Infinity when it misses it
 * before `far`. `sx`, `sy`, `sz` are 3 where the ray runs towards −axis (its near side is the
 * box's max there), else 0; `ix`… the inverse direction.
 */
function enter(
  o: number,
  sx: number,
  sy: number,
  sz: number,
  ox: number,
  oy: number,
  oz: number,
  ix: number,
  iy: number,
  iz: number,
  far: number,
): number {
  const f = F;
  let near = (f[o + sx]! - ox) * ix,
    out = (f[o + 3 - sx]! - ox) * ix;
  const ny = (f[o + 1 + sy]! - oy) * iy,
    fy = (f[o + 4 - sy]! - oy) * iy;
  if (ny > near) near = ny;
  if (fy < out) out = fy;
  const nz = (f[o + 2 + sz]! - oz) * iz,
    fz = (f[o + 5 - sz]! - oz) * iz;
  if (nz > near) near = nz;
  if (fz < out) out = fz;
  // NaN (the ray runs along a face of the box) compares false: treated as a hit, never a miss.
  if (near > out || out < 0 || near > far) return Infinity;
  return near > 0 ? near : 0;
}

/** Möller–Trumbore: the ray's distance to triangle s, or -1 when it misses. */
function rayTriangle(s: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number) {
  const p = P,
    indices = IDX;
  const a = indices[s * 3]! * 3,
    b = indices[s * 3 + 1]! * 3,
    c = indices[s * 3 + 2]! * 3;
  const e1x = p[b]! - p[a]!,
    e1y = p[b + 1]! - p[a + 1]!,
    e1z = p[b + 2]! - p[a + 2]!;
  const e2x = p[c]! - p[a]!,
    e2y = p[c + 1]! - p[a + 1]!,
    e2z = p[c + 2]! - p[a + 2]!;
  const hx = dy * e2z - dz * e2y,
    hy = dz * e2x - dx * e2z,
    hz = dx * e2y - dy * e2x;
  const det = e1x * hx + e1y * hy + e1z * hz;
  if (Math.abs(det) < 1e-20) return -1;
  const f = 1 / det;
  const sx = ox - p[a]!,
    sy = oy - p[a + 1]!,
    sz = oz - p[a + 2]!;
  const u = f * (sx * hx + sy * hy + sz * hz);
  if (u < 0 || u > 1) return -1;
  const qx = sy * e1z - sz * e1y,
    qy = sz * e1x - sx * e1z,
    qz = sx * e1y - sy * e1x;
  const v = f * (dx * qx + dy * qy + dz * qz);
  if (v < 0 || u + v > 1) return -1;
  return f * (e2x * qx + e2y * qy + e2z * qz);
}
