// The thin-wall walk in WebAssembly with 128-bit SIMD, compiled by `npm run build:wasm` into
// lib/viewer/wall-walk.wasm.ts: the rays of lib/viewer/wall-thickness.ts through a four-wide tree
// (lib/viewer/wall-walk.ts builds it from the model's index), four boxes a test. Each ray starts
// at its own leaf and climbs, walking the other slots of every node above it, nearest box first.
// The boxes are tested in float32, against boxes widened enough that no box a ray meets is ever
// left out; the triangles are tested in float64 exactly as wall-thickness.ts tests them, so the
// walls are equal bit for bit.
//
// Memory (laid out by wall-walk.ts): nodes of 128 bytes (min x, y, z and max x, y, z of the four
// slots as f32x4; the four children as i32: a node's number, ~(start << 4 | count) for a leaf,
// or EMPTY; then the parent's number and the slot the node sits in); per place of the index's
// order its triangle's unit normal (f32 × 3) and corners' vertex numbers (u32 × 3); the vertices
// (f32 × 3); per place its leaf's node and slot (node << 2 | slot); the answers (f32 a ray); the
// walk's stack (i32 node or leaf, f32 entry distance).

const NODE_BYTES: i32 = 128;
const TRI_BYTES: i32 = 24;
const EMPTY: i32 = 0x7fffffff;

let nodes: usize = 0;
let tris: usize = 0;
let positions: usize = 0;
let homes: usize = 0;
let out: usize = 0;
let stack: usize = 0;
let eps: f64 = 0;

// The ray being walked.
let ox: f64 = 0, oy: f64 = 0, oz: f64 = 0;
let dx: f64 = 0, dy: f64 = 0, dz: f64 = 0;
let vox: v128 = f32x4.splat(0), voy: v128 = f32x4.splat(0), voz: v128 = f32x4.splat(0);
let vix: v128 = f32x4.splat(0), viy: v128 = f32x4.splat(0), viz: v128 = f32x4.splat(0);
// Byte offsets of the near and far sides in a node, by the ray's direction on each axis.
let nearX: i32 = 0, nearY: i32 = 16, nearZ: i32 = 32, farX: i32 = 48, farY: i32 = 64, farZ: i32 = 80;

export function setup(nodesAt: usize, trisAt: usize, positionsAt: usize, homesAt: usize, outAt: usize, stackAt: usize, epsilon: f64): void {
  nodes = nodesAt;
  tris = trisAt;
  positions = positionsAt;
  homes = homesAt;
  out = outAt;
  stack = stackAt;
  eps = epsilon;
}

/** The smallest f32 not below `x` (x ≥ 0 or Infinity). */
@inline function upF32(x: f64): f32 {
  const f = <f32>x;
  if (<f64>f >= x) return f;
  return reinterpret<f32>(reinterpret<i32>(f) + 1);
}

/** Möller–Trumbore in float64, as wall-thickness.ts's rayTriangle: the distance, or -1. */
@inline function rayTriangle(place: i32): f64 {
  const t = tris + <usize>place * TRI_BYTES;
  const a = positions + <usize>load<u32>(t, 12) * 12,
    b = positions + <usize>load<u32>(t, 16) * 12,
    c = positions + <usize>load<u32>(t, 20) * 12;
  const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8);
  const e1x = <f64>load<f32>(b) - ax, e1y = <f64>load<f32>(b, 4) - ay, e1z = <f64>load<f32>(b, 8) - az;
  const e2x = <f64>load<f32>(c) - ax, e2y = <f64>load<f32>(c, 4) - ay, e2z = <f64>load<f32>(c, 8) - az;
  const hx = dy * e2z - dz * e2y, hy = dz * e2x - dx * e2z, hz = dx * e2y - dy * e2x;
  const det = e1x * hx + e1y * hy + e1z * hz;
  if (Math.abs(det) < 1e-20) return -1;
  const f = 1 / det;
  const sx = ox - ax, sy = oy - ay, sz = oz - az;
  const u = f * (sx * hx + sy * hy + sz * hz);
  if (u < 0 || u > 1) return -1;
  const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  const v = f * (dx * qx + dy * qy + dz * qz);
  if (v < 0 || u + v > 1) return -1;
  return f * (e2x * qx + e2y * qy + e2z * qz);
}

/** The nearest wall among a leaf's triangles (`code`: start << 4 | count) nearer than `best`. */
function leafHits(code: i32, self: i32, best: f64): f64 {
  const start = code >>> 4,
    end = start + (code & 15);
  for (let q = start; q < end; q++) {
    if (q == self) continue;
    const t = tris + <usize>q * TRI_BYTES;
    // Only a wall facing the same way is where the ray leaves the solid.
    if (<f64>load<f32>(t) * dx + <f64>load<f32>(t, 4) * dy + <f64>load<f32>(t, 8) * dz <= 0) continue;
    const hit = rayTriangle(q);
    if (hit > eps && hit < best) best = hit;
  }
  return best;
}

/**
 * Walks node `start`'s slots but `skip` (4: none) and everything under them, nearest box first,
 * for the nearest wall nearer than `best`.
 */
function walk(start: i32, skip: i32, self: i32, best: f64): f64 {
  let top = 0;
  let bestF = upF32(best);
  store<i32>(stack, start);
  store<f32>(stack, -1, 4);
  top = 1;
  let skipping = skip;
  while (top > 0) {
    top--;
    const at = stack + <usize>top * 8;
    const ref = load<i32>(at);
    if (load<f32>(at, 4) > bestF) continue;
    if (ref < 0) {
      const nearer = leafHits(~ref, self, best);
      if (nearer < best) {
        best = nearer;
        bestF = upF32(best);
      }
      continue;
    }
    const base = nodes + <usize>ref * NODE_BYTES;
    const nx = f32x4.mul(f32x4.sub(v128.load(base + nearX), vox), vix),
      fx = f32x4.mul(f32x4.sub(v128.load(base + farX), vox), vix);
    const ny = f32x4.mul(f32x4.sub(v128.load(base + nearY), voy), viy),
      fy = f32x4.mul(f32x4.sub(v128.load(base + farY), voy), viy);
    const nz = f32x4.mul(f32x4.sub(v128.load(base + nearZ), voz), viz),
      fz = f32x4.mul(f32x4.sub(v128.load(base + farZ), voz), viz);
    // As wall-thickness.ts's enter: a NaN (the ray along a side) never makes a miss.
    const near = f32x4.pmax(f32x4.pmax(nx, ny), nz),
      far = f32x4.pmin(f32x4.pmin(fx, fy), fz);
    const zero = f32x4.splat(0);
    const miss = v128.or(v128.or(f32x4.gt(near, far), f32x4.lt(far, zero)), f32x4.gt(near, f32x4.splat(bestF)));
    let hits = ~i32x4.bitmask(miss) & 15;
    if (skipping < 4) {
      hits &= ~(1 << skipping);
      skipping = 4;
    }
    if (hits == 0) continue;
    const entry = f32x4.pmax(zero, near);
    // Pushed farthest first, so the nearest is walked next.
    const e0 = f32x4.extract_lane(entry, 0),
      e1 = f32x4.extract_lane(entry, 1),
      e2 = f32x4.extract_lane(entry, 2),
      e3 = f32x4.extract_lane(entry, 3);
    const first = top;
    for (let s = 0; s < 4; s++) {
      if (!(hits & (1 << s))) continue;
      const child = load<i32>(base + 96 + (<usize>s << 2));
      if (child == EMPTY) continue;
      const e = s == 0 ? e0 : s == 1 ? e1 : s == 2 ? e2 : e3;
      // Insert in order: entries from `first` up are kept falling.
      let i = top;
      while (i > first && load<f32>(stack + <usize>(i - 1) * 8, 4) < e) {
        const from = stack + <usize>(i - 1) * 8;
        store<i64>(from + 8, load<i64>(from));
        i--;
      }
      const to = stack + <usize>i * 8;
      store<i32>(to, child);
      store<f32>(to, e, 4);
      top++;
    }
  }
  return best;
}

/** The wall of the ray of the triangle at place `k`, nearer than `best` (NaN when degenerate). */
function cast(k: i32, best: f64): f64 {
  const t = tris + <usize>k * TRI_BYTES;
  dx = -<f64>load<f32>(t);
  dy = -<f64>load<f32>(t, 4);
  dz = -<f64>load<f32>(t, 8);
  if (dx == 0 && dy == 0 && dz == 0) return NaN;
  const a = positions + <usize>load<u32>(t, 12) * 12,
    b = positions + <usize>load<u32>(t, 16) * 12,
    c = positions + <usize>load<u32>(t, 20) * 12;
  ox = (<f64>load<f32>(a) + <f64>load<f32>(b) + <f64>load<f32>(c)) / 3;
  oy = (<f64>load<f32>(a, 4) + <f64>load<f32>(b, 4) + <f64>load<f32>(c, 4)) / 3;
  oz = (<f64>load<f32>(a, 8) + <f64>load<f32>(b, 8) + <f64>load<f32>(c, 8)) / 3;
  const ix = 1 / dx,
    iy = 1 / dy,
    iz = 1 / dz;
  vox = f32x4.splat(<f32>ox);
  voy = f32x4.splat(<f32>oy);
  voz = f32x4.splat(<f32>oz);
  vix = f32x4.splat(<f32>ix);
  viy = f32x4.splat(<f32>iy);
  viz = f32x4.splat(<f32>iz);
  // A −0 component gives −Infinity: its near side is the max, as in wall-thickness.ts.
  nearX = ix < 0 ? 48 : 0;
  farX = 48 - nearX;
  nearY = iy < 0 ? 64 : 16;
  farY = 80 - nearY;
  nearZ = iz < 0 ? 80 : 32;
  farZ = 112 - nearZ;
  const home = load<u32>(homes + <usize>k * 4);
  let node = <i32>(home >>> 2),
    slot = <i32>(home & 3);
  best = leafHits(~load<i32>(nodes + <usize>node * NODE_BYTES + 96 + (<usize>slot << 2)), k, best);
  for (;;) {
    best = walk(node, slot, k, best);
    const base = nodes + <usize>node * NODE_BYTES;
    const parent = load<i32>(base, 112);
    if (parent < 0) break;
    slot = load<i32>(base, 116);
    node = parent;
  }
  return best;
}

/** The walls of the places `from` to `to`, up to `maxDistance` (Infinity beyond), into the answers. */
export function walls(from: i32, to: i32, maxDistance: f64): void {
  for (let k = from; k < to; k++) {
    const best = cast(k, maxDistance);
    store<f32>(out + <usize>(k - from) * 4, best < maxDistance || isNaN(best) ? <f32>best : Infinity);
  }
}
