/**
 * Per-triangle unit normals of an indexed mesh (zero for degenerate triangles), as xyz triples.
 * The length is a square root of the sum of squares, not Math.hypot: V8's hypot guards against
 * overflow and takes about 85 ms for 2M triangles against 15 ms (a triangle's cross product of
 * float32 corners cannot overflow a double).
 */
export function faceNormals(positions: ArrayLike<number>, indices: ArrayLike<number>): Float32Array {
  const p = positions;
  const n = Math.floor(indices.length / 3);
  const normals = new Float32Array(n * 3);
  for (let t = 0; t < n; t++) {
    const a = (indices[t * 3] ?? 0) * 3,
      b = (indices[t * 3 + 1] ?? 0) * 3,
      c = (indices[t * 3 + 2] ?? 0) * 3;
    const ux = (p[b] ?? 0) - (p[a] ?? 0),
      uy = (p[b + 1] ?? 0) - (p[a + 1] ?? 0),
      uz = (p[b + 2] ?? 0) - (p[a + 2] ?? 0);
    const wx = (p[c] ?? 0) - (p[a] ?? 0),
      wy = (p[c + 1] ?? 0) - (p[a + 1] ?? 0),
      wz = (p[c + 2] ?? 0) - (p[a + 2] ?? 0);
    const nx = uy * wz - uz * wy,
      ny = uz * wx - ux * wz,
      nz = ux * wy - uy * wx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l > 0) {
      normals[t * 3] = nx / l;
      normals[t * 3 + 1] = ny / l;
      normals[t * 3 + 2] = nz / l;
    }
  }
  return normals;
}
