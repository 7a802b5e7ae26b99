/**
 * Linear-time mesh adjacency shared by the general split and the segmentation: the twin
 * of every half-edge (bucketed by the lower vertex, no hash map) and the dihedral bend
 * of every interior edge, signed so that concave (valley) edges are positive.
 */

/** Smallest concave bend (1 - cos of the dihedral turn) of a crease edge: 30 degrees. */
export const CREASE_BEND = 1 - Math.cos(Math.PI / 6);

/**
 * For each half-edge h (face * 3 + corner, running from corner to corner + 1), the
 * half-edge it is paired with, or -1. Uses of one undirected edge are paired in order
 * (first with second, third with fourth), whatever their direction.
 */
export function halfEdgeTwins(indices: Uint32Array, vertexCount?: number): Int32Array {
  const nh = indices.length;
  let nv = vertexCount ?? 0;
  if (vertexCount === undefined) for (let i = 0; i < nh; i++) if (indices[i]! + 1 > nv) nv = indices[i]! + 1;
  const start = new Uint32Array(nv + 1);
  const lo = (h: number) => {
    const a = indices[h]!,
      b = indices[h - (h % 3) + (((h % 3) + 1) % 3)]!;
    return a < b ? a : b;
  };
  const hi = (h: number) => {
    const a = indices[h]!,
      b = indices[h - (h % 3) + (((h % 3) + 1) % 3)]!;
    return a < b ? b : a;
  };
  for (let h = 0; h < nh; h++) start[lo(h) + 1]!++;
  for (let v = 0; v < nv; v++) start[v + 1] = start[v + 1]! + start[v]!;
  const fill = start.slice(0, nv);
  const bucket = new Uint32Array(nh);
  for (let h = 0; h < nh; h++) bucket[fill[lo(h)]!++] = h;
  const twin = new Int32Array(nh).fill(-1);
  for (let v = 0; v < nv; v++) {
    const s = start[v]!,
      e = start[v + 1]!;
    for (let i = s; i < e; i++) {
      const h = bucket[i]!;
      if (twin[h] !== -1) continue;
      const other = hi(h);
      for (let j = i + 1; j < e; j++) {
        const g = bucket[j]!;
        if (twin[g] === -1 && hi(g) === other) {
          twin[h] = g;
          twin[g] = h;
          break;
        }
      }
    }
  }
  return twin;
}

/** Unit face normals (zero for degenerate faces) and face areas. */
export function faceNormals(positions: ArrayLike<number>, indices: Uint32Array): { normal: Float32Array; area: Float32Array } {
  const nf = indices.length / 3;
  const normal = new Float32Array(nf * 3),
    area = new Float32Array(nf);
  for (let f = 0; f < nf; f++) {
    const a = indices[f * 3]! * 3,
      b = indices[f * 3 + 1]! * 3,
      c = indices[f * 3 + 2]! * 3;
    const ux = positions[b]! - positions[a]!,
      uy = positions[b + 1]! - positions[a + 1]!,
      uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!,
      vy = positions[c + 1]! - positions[a + 1]!,
      vz = positions[c + 2]! - positions[a + 2]!;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const l = Math.hypot(nx, ny, nz);
    area[f] = l / 2;
    if (l > 0) {
      normal[f * 3] = nx / l;
      normal[f * 3 + 1] = ny / l;
      normal[f * 3 + 2] = nz / l;
    }
  }
  return { normal, area };
}

/**
 * Bend of each half-edge's edge: 1 - cos(angle between the two face normals), positive
 * where the edge is concave (the far face rises above this face's plane), negative where
 * convex, 0 on open edges. In [-2, 2].
 */
export function edgeBend(positions: ArrayLike<number>, indices: Uint32Array, twin: Int32Array, normal: Float32Array): Float32Array {
  const nh = indices.length;
  const bend = new Float32Array(nh);
  for (let h = 0; h < nh; h++) {
    const g = twin[h]!;
    if (g < h) continue; // open (-1) or done from the twin
    const f = (h - (h % 3)) / 3,
      fg = (g - (g % 3)) / 3;
    const dot = normal[f * 3]! * normal[fg * 3]! + normal[f * 3 + 1]! * normal[fg * 3 + 1]! + normal[f * 3 + 2]! * normal[fg * 3 + 2]!;
    const a = indices[h]! * 3,
      o = indices[fg * 3 + (((g % 3) + 2) % 3)]! * 3;
    const side =
      normal[f * 3]! * (positions[o]! - positions[a]!) +
      normal[f * 3 + 1]! * (positions[o + 1]! - positions[a + 1]!) +
      normal[f * 3 + 2]! * (positions[o + 2]! - positions[a + 2]!);
    const b = (1 - dot) * (side > 0 ? 1 : -1);
    bend[h] = b;
    bend[g] = b;
  }
  return bend;
}
