/**
 * A fast build of a model's spatial index in three-mesh-bvh's packed layout (indirect): the
 * triangles are sorted along a Morton curve of their box centres (a radix sort of 30-bit codes)
 * and split where the codes' highest differing bit changes, so each split halves a cell of a
 * 1024³ grid of cubes, much like three-mesh-bvh's CENTER strategy halves a node's longest side.
 * It touches each triangle a fixed number of times instead of once per level and builds a
 * 2M-triangle index about 2.5× faster than MeshBVH's own build (bench:studio part 4), for about
 * 12% more box tests a wall ray. MeshBVH.deserialize makes it a MeshBVH, so the measuring pick
 * and the thin-wall search walk it as they walk one MeshBVH built.
 *
 * Layout (three-mesh-bvh's core/utils/nodeBufferUtils.js): 8 uint32 a node, depth first; 6
 * float32 bounds (min xyz, max xyz); a leaf has its first place in the order at uint32 6, its
 * count at uint16 14 and 0xFFFF at uint16 15; an inner node's left child follows it, its right
 * child's distance in nodes is at uint32 6 and its split axis at uint32 7.
 */

/** Triangles a leaf holds at most. */
export const LEAF_SIZE = 8;
const NODE = 8;
const LEAF = 0xffff;
/** Bits of each axis in a code (3 × 10 = 30 bits). */
const AXIS_BITS = 10;
const CELLS = 1 << AXIS_BITS;
const RADIX_BITS = 10;

export interface MortonIndex {
  /** One root's node buffer (three-mesh-bvh's `roots`). */
  roots: ArrayBuffer[];
  /** Triangle numbers in the order of the leaves (three-mesh-bvh's `indirectBuffer`). */
  order: Uint32Array;
}

/** `x`'s low 10 bits spread out to every third bit. */
function spread(x: number): number {
  let v = x & 0x3ff;
  v = (v | (v << 16)) & 0x30000ff;
  v = (v | (v << 8)) & 0x300f00f;
  v = (v | (v << 4)) & 0x30c30c3;
  v = (v | (v << 2)) & 0x9249249;
  return v;
}

/** The index of the triangles `indices` makes of `positions`. */
export function mortonIndex(positions: ArrayLike<number>, indices: ArrayLike<number>): MortonIndex {
  const n = Math.floor(indices.length / 3);
  const p = positions;
  // Each triangle's box (min xyz, max xyz), and the box of their centres (doubled: min + max).
  const boxes = new Float32Array(n * 6);
  let cx0 = Infinity,
    cy0 = Infinity,
    cz0 = Infinity,
    cx1 = -Infinity,
    cy1 = -Infinity,
    cz1 = -Infinity;
  for (let t = 0; t < n; t++) {
    const a = (indices[t * 3] ?? 0) * 3,
      b = (indices[t * 3 + 1] ?? 0) * 3,
      c = (indices[t * 3 + 2] ?? 0) * 3;
    const ax = p[a] ?? 0,
      ay = p[a + 1] ?? 0,
      az = p[a + 2] ?? 0,
      bx = p[b] ?? 0,
      by = p[b + 1] ?? 0,
      bz = p[b + 2] ?? 0,
      qx = p[c] ?? 0,
      qy = p[c + 1] ?? 0,
      qz = p[c + 2] ?? 0;
    const x0 = Math.min(ax, bx, qx),
      y0 = Math.min(ay, by, qy),
      z0 = Math.min(az, bz, qz),
      x1 = Math.max(ax, bx, qx),
      y1 = Math.max(ay, by, qy),
      z1 = Math.max(az, bz, qz);
    const o = t * 6;
    boxes[o] = x0;
    boxes[o + 1] = y0;
    boxes[o + 2] = z0;
    boxes[o + 3] = x1;
    boxes[o + 4] = y1;
    boxes[o + 5] = z1;
    const mx = x0 + x1,
      my = y0 + y1,
      mz = z0 + z1;
    if (mx < cx0) cx0 = mx;
    if (mx > cx1) cx1 = mx;
    if (my < cy0) cy0 = my;
    if (my > cy1) cy1 = my;
    if (mz < cz0) cz0 = mz;
    if (mz > cz1) cz1 = mz;
  }
  // Cubic cells: the centres' box's longest side cut into 1024 (cells as long on every axis make
  // boxes about as long as wide: 12% fewer box tests a ray than cutting every side into 1024).
  const extent = Math.max(cx1 - cx0, cy1 - cy0, cz1 - cz0);
  const sx = extent > 0 ? (CELLS - 1e-3) / extent : 0,
    sy = sx,
    sz = sx;
  let keys = new Uint32Array(n);
  for (let t = 0; t < n; t++) {
    const o = t * 6;
    // `| 0` makes a NaN centre (a triangle with a NaN corner) cell 0.
    const x = (((boxes[o] ?? 0) + (boxes[o + 3] ?? 0) - cx0) * sx) | 0,
      y = (((boxes[o + 1] ?? 0) + (boxes[o + 4] ?? 0) - cy0) * sy) | 0,
      z = (((boxes[o + 2] ?? 0) + (boxes[o + 5] ?? 0) - cz0) * sz) | 0;
    keys[t] = ((spread(x) << 2) | (spread(y) << 1) | spread(z)) >>> 0;
  }
  // Radix sort of the triangles by code, 10 bits a pass (stable: equal codes keep the file's order).
  let order = new Uint32Array(n);
  for (let t = 0; t < n; t++) order[t] = t;
  let keysOut = new Uint32Array(n),
    orderOut = new Uint32Array(n);
  const counts = new Uint32Array(1 << RADIX_BITS);
  for (let shift = 0; shift < 3 * AXIS_BITS; shift += RADIX_BITS) {
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const digit = ((keys[i] ?? 0) >>> shift) & 1023;
      counts[digit] = (counts[digit] ?? 0) + 1;
    }
    let sum = 0;
    for (let i = 0; i < counts.length; i++) {
      const c = counts[i] ?? 0;
      counts[i] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const k = keys[i] ?? 0;
      const digit = (k >>> shift) & 1023;
      const at = counts[digit] ?? 0;
      counts[digit] = at + 1;
      keysOut[at] = k;
      orderOut[at] = order[i] ?? 0;
    }
    [keys, keysOut] = [keysOut, keys];
    [order, orderOut] = [orderOut, order];
  }

  // At most 2n - 1 nodes (every leaf holds one triangle or more).
  const buffer = new ArrayBuffer(32 * Math.max(1, 2 * n - 1));
  const f32 = new Float32Array(buffer),
    u32 = new Uint32Array(buffer),
    u16 = new Uint16Array(buffer);
  let nodes = 0;
  /** Writes the node of places lo..hi of the order (and its subtree), depth first; returns its number. */
  const build = (lo: number, hi: number): number => {
    const node = nodes++;
    const o = node * NODE;
    if (hi - lo <= LEAF_SIZE) {
      let x0 = Infinity,
        y0 = Infinity,
        z0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity,
        z1 = -Infinity;
      for (let i = lo; i < hi; i++) {
        // Comparisons, not Math.min: a NaN corner leaves the box as it was.
        const b = (order[i] ?? 0) * 6;
        const bx0 = boxes[b] ?? 0,
          by0 = boxes[b + 1] ?? 0,
          bz0 = boxes[b + 2] ?? 0,
          bx1 = boxes[b + 3] ?? 0,
          by1 = boxes[b + 4] ?? 0,
          bz1 = boxes[b + 5] ?? 0;
        if (bx0 < x0) x0 = bx0;
        if (by0 < y0) y0 = by0;
        if (bz0 < z0) z0 = bz0;
        if (bx1 > x1) x1 = bx1;
        if (by1 > y1) y1 = by1;
        if (bz1 > z1) z1 = bz1;
      }
      // An empty model's one leaf: an empty box at the origin.
      if (hi === lo) x0 = y0 = z0 = x1 = y1 = z1 = 0;
      f32[o] = x0;
      f32[o + 1] = y0;
      f32[o + 2] = z0;
      f32[o + 3] = x1;
      f32[o + 4] = y1;
      f32[o + 5] = z1;
      u32[o + 6] = lo;
      u16[o * 2 + 14] = hi - lo;
      u16[o * 2 + 15] = LEAF;
      return node;
    }
    const first = keys[lo] ?? 0,
      last = keys[hi - 1] ?? 0;
    let split = (lo + hi) >>> 1;
    let axis = 0;
    if (first !== last) {
      // The codes in lo..hi share the bits above `bit`: the first with it set starts the right child.
      const bit = 31 - Math.clz32(first ^ last);
      axis = 2 - (bit % 3);
      let l = lo,
        h = hi - 1;
      while (l < h) {
        const m = (l + h) >>> 1;
        if ((((keys[m] ?? 0) >>> bit) & 1) === 1) h = m;
        else l = m + 1;
      }
      split = l;
    }
    build(lo, split);
    const right = build(split, hi);
    u32[o + 6] = right - node;
    u32[o + 7] = axis;
    const l = o + NODE,
      r = right * NODE;
    for (let k = 0; k < 3; k++) {
      f32[o + k] = Math.min(f32[l + k] ?? 0, f32[r + k] ?? 0);
      f32[o + 3 + k] = Math.max(f32[l + 3 + k] ?? 0, f32[r + 3 + k] ?? 0);
    }
    return node;
  };
  build(0, n);
  return { roots: [buffer.slice(0, nodes * 32)], order };
}
