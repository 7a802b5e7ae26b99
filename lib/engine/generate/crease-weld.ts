/**
 * Shared vertices for a mesh about to get new UVs and normals (texturing, request_type 2).
 *
 * Inputs often repeat a position once per triangle (STL is always like that; GLB and OBJ
 * repeat it along uv and normal seams). Texturing replaces the uvs and the normals, so those
 * seams mean nothing any more: a vertex stays split only where the surface has a crease, a
 * corner sharper than CREASE_DEGREES between faces, as "auto smooth" does in Blender and
 * three's toCreasedNormals. A 4.3M-triangle STL torus goes from 13M vertices to 2.2M, the
 * textured result from 453 MB to under 150 MB, and it is smooth-shaded instead of faceted,
 * while a cube keeps its hard edges.
 *
 * Positions, triangles and triangle order are kept exactly: only the vertex numbering changes.
 * Memory: one open-addressing table of 32-bit ids (2x the input vertices, rounded up to a
 * power of two) plus per-triangle arrays; no copy of the input positions.
 */

/** Faces meeting at more than this angle keep separate vertices (a hard edge). */
export const CREASE_DEGREES = 60;

/** Fans with more corners than this are not split at creases (one smooth vertex). */
const MAX_FAN = 256;

export interface WeldInput {
  positions: Float32Array;
  indices: Uint32Array;
}

export interface CreaseWelded {
  positions: Float32Array;
  /** Same triangles, in the same order, over the new vertices. */
  indices: Uint32Array;
}

/** Positions that are the same point (bit patterns, with -0 as 0) share one id. */
function weldPositions(parts: readonly WeldInput[]): { positions: Float32Array; indices: Uint32Array } {
  const total = parts.reduce((n, p) => n + p.positions.length / 3, 0);
  const triangles = parts.reduce((n, p) => n + p.indices.length, 0);
  let cap = 1024;
  while (cap < total * 2) cap *= 2;
  const mask = cap - 1;
  const table = new Int32Array(cap).fill(-1);
  let out = new Float32Array(Math.max(3, Math.ceil(total / 4) * 3));
  let count = 0;
  const indices = new Uint32Array(triangles);
  const bits = new Uint32Array(1),
    f = new Float32Array(bits.buffer);
  const key = (x: number) => {
    f[0] = x;
    return bits[0] === 0x80000000 ? 0 : bits[0]!;
  };
  let io = 0;
  for (const part of parts) {
    const p = part.positions,
      n = p.length / 3;
    const remap = new Uint32Array(n);
    for (let v = 0; v < n; v++) {
      const x = p[v * 3]!,
        y = p[v * 3 + 1]!,
        z = p[v * 3 + 2]!;
      let h = (Math.imul(key(x), 0x9e3779b1) ^ Math.imul(key(y), 0x85ebca77) ^ Math.imul(key(z), 0xc2b2ae3d)) >>> 0;
      h = (h ^ (h >>> 15)) & mask;
      for (;;) {
        const id = table[h]!;
        if (id < 0) {
          if (count * 3 === out.length) {
            const grown = new Float32Array(Math.min(total * 3, out.length * 2));
            grown.set(out);
            out = grown;
          }
          out[count * 3] = x;
          out[count * 3 + 1] = y;
          out[count * 3 + 2] = z;
          table[h] = count;
          remap[v] = count++;
          break;
        }
        if (out[id * 3] === x && out[id * 3 + 1] === y && out[id * 3 + 2] === z) {
          remap[v] = id;
          break;
        }
        h = (h + 1) & mask;
      }
    }
    for (let i = 0; i < part.indices.length; i++) indices[io++] = remap[part.indices[i]!]!;
  }
  return { positions: out.slice(0, count * 3), indices };
}

/**
 * Welds equal positions across `parts` (concatenated in order, triangles in order), then
 * splits each vertex once per smoothing group of the faces around it: faces whose normals
 * are within `creaseDegrees` of each other, transitively, share the vertex.
 */
export function creaseWeld(parts: readonly WeldInput[], creaseDegrees = CREASE_DEGREES): CreaseWelded {
  const welded = weldPositions(parts);
  const P = welded.positions,
    I = welded.indices;
  const nv = P.length / 3,
    nt = I.length / 3;
  const cos = Math.cos((creaseDegrees * Math.PI) / 180);

  // Unit face normals (0 for a degenerate face, which joins the first proper face's group).
  const fn = new Float32Array(nt * 3);
  for (let t = 0; t < nt; t++) {
    const a = I[t * 3]! * 3,
      b = I[t * 3 + 1]! * 3,
      c = I[t * 3 + 2]! * 3;
    const ux = P[b]! - P[a]!,
      uy = P[b + 1]! - P[a + 1]!,
      uz = P[b + 2]! - P[a + 2]!;
    const vx = P[c]! - P[a]!,
      vy = P[c + 1]! - P[a + 1]!,
      vz = P[c + 2]! - P[a + 2]!;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l > 0) {
      fn[t * 3] = nx / l;
      fn[t * 3 + 1] = ny / l;
      fn[t * 3 + 2] = nz / l;
    }
  }

  // Corners around each vertex (CSR).
  const start = new Uint32Array(nv + 1);
  for (let i = 0; i < I.length; i++) start[I[i]! + 1]!++;
  for (let v = 0; v < nv; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, nv);
  const corners = new Uint32Array(I.length);
  for (let i = 0; i < I.length; i++) corners[fill[I[i]!]!++] = i;

  // Smoothing groups per fan by union-find; group 0 keeps the vertex's id, others are appended.
  const parent = new Int32Array(MAX_FAN),
    groupId = new Int32Array(MAX_FAN),
    degenerate = new Uint8Array(MAX_FAN);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
    return x;
  };
  const outIndices = I; // rewritten in place: each corner is read (via `corners`) before it is renumbered
  const extraSrc: number[] = [];
  for (let v = 0; v < nv; v++) {
    const s = start[v]!,
      k = start[v + 1]! - s;
    if (k <= 1 || k > MAX_FAN) continue;
    for (let i = 0; i < k; i++) parent[i] = i;
    // A degenerate face has no normal: it joins the group of the fan's first proper face
    // afterwards, and only that one (joining every group would smooth across a crease).
    let proper = -1;
    for (let i = 0; i < k; i++) {
      const fi = ((corners[s + i]! / 3) | 0) * 3;
      const ax = fn[fi]!,
        ay = fn[fi + 1]!,
        az = fn[fi + 2]!;
      degenerate[i] = ax === 0 && ay === 0 && az === 0 ? 1 : 0;
      if (degenerate[i]) continue;
      if (proper < 0) proper = i;
      for (let j = i + 1; j < k; j++) {
        const fj = ((corners[s + j]! / 3) | 0) * 3;
        const bx = fn[fj]!,
          by = fn[fj + 1]!,
          bz = fn[fj + 2]!;
        if (bx === 0 && by === 0 && bz === 0) continue; // dot 0 would pass a crease of 90 degrees or more
        if (ax * bx + ay * by + az * bz >= cos) {
          const ri = find(i),
            rj = find(j);
          if (ri !== rj) parent[rj] = ri;
        }
      }
    }
    const host = Math.max(proper, 0);
    for (let i = 0; i < k; i++) if (degenerate[i]) parent[i] = host; // all degenerate: host 0 points to itself
    groupId.fill(-1, 0, k);
    let groups = 0;
    for (let i = 0; i < k; i++) {
      const r = find(i);
      if (groupId[r]! < 0) {
        groupId[r] = groups++ === 0 ? v : nv + extraSrc.length;
        if (groups > 1) extraSrc.push(v);
      }
      outIndices[corners[s + i]!] = groupId[r]!;
    }
  }
  if (extraSrc.length === 0) return { positions: P, indices: outIndices };
  const positions = new Float32Array((nv + extraSrc.length) * 3);
  positions.set(P);
  for (let e = 0; e < extraSrc.length; e++) positions.set(P.subarray(extraSrc[e]! * 3, extraSrc[e]! * 3 + 3), (nv + e) * 3);
  return { positions, indices: outIndices };
}
