/** Mesh checks shared by the depth tests (beyond checkManifold's edge counts). */

/** Every vertex's incident triangles form one closed fan (no pinch vertices). */
export function vertexManifold(indices: Uint32Array, vertexCount: number): boolean {
  const nextOf = new Map<number, number>();
  const start = new Int32Array(vertexCount).fill(-1);
  const deg = new Uint32Array(vertexCount);
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const v = indices[t + e]!,
        b = indices[t + ((e + 1) % 3)]!,
        c = indices[t + ((e + 2) % 3)]!;
      nextOf.set(v * vertexCount + b, c);
      if (start[v] === -1) start[v] = b;
      deg[v]!++;
    }
  }
  for (let v = 0; v < vertexCount; v++) {
    if (start[v] === -1) continue;
    let u = start[v]!,
      steps = 0;
    do {
      const n = nextOf.get(v * vertexCount + u);
      if (n === undefined) return false;
      u = n;
      steps++;
    } while (u !== start[v] && steps <= deg[v]!);
    if (steps !== deg[v]) return false;
  }
  return true;
}

/** Euler characteristic V - E + F of a closed triangle mesh (2 per sphere-like shell). */
export function euler(indices: Uint32Array): number {
  const used = new Set<number>();
  for (const v of indices) used.add(v);
  return used.size - indices.length / 2 + indices.length / 3;
}
