/**
 * Writes the unit normal of the triangle with corners `a`, `b`, `c` (vertex numbers into
 * `positions`) into `out` at `at` (x, y, z), or leaves it as it is when the triangle is
 * degenerate. The length is a square root of the sum of squares, not Math.hypot: V8's hypot
 * guards against overflow and takes about 85 ms for 2M triangles against 15 ms (a triangle's
 * cross product of float32 corners cannot overflow a double). The thin-wall search in
 * WebAssembly (wall-walk.ts) lays its normals out with this too, so they equal faceNormals' bit for bit.
 */
export function writeFaceNormal(positions: ArrayLike<number>, a: number, b: number, c: number, out: Float32Array, at: number): void {
  const p = positions,
    a3 = a * 3,
    b3 = b * 3,
    c3 = c * 3;
  const ux = (p[b3] ?? 0) - (p[a3] ?? 0),
    uy = (p[b3 + 1] ?? 0) - (p[a3 + 1] ?? 0),
    uz = (p[b3 + 2] ?? 0) - (p[a3 + 2] ?? 0);
  const wx = (p[c3] ?? 0) - (p[a3] ?? 0),
    wy = (p[c3 + 1] ?? 0) - (p[a3 + 1] ?? 0),
    wz = (p[c3 + 2] ?? 0) - (p[a3 + 2] ?? 0);
  const nx = uy * wz - uz * wy,
    ny = uz * wx - ux * wz,
    nz = ux * wy - uy * wx;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (l > 0) {
    out[at] = nx / l;
    out[at + 1] = ny / l;
    out[at + 2] = nz / l;
  }
}

/** Per-triangle unit normals of an indexed mesh (zero for degenerate triangles), as xyz triples. */
export function faceNormals(positions: ArrayLike<number>, indices: ArrayLike<number>): Float32Array {
  const n = Math.floor(indices.length / 3);
  const normals = new Float32Array(n * 3);
  for (let t = 0; t < n; t++)
    writeFaceNormal(positions, indices[t * 3] ?? 0, indices[t * 3 + 1] ?? 0, indices[t * 3 + 2] ?? 0, normals, t * 3);
  return normals;
}
