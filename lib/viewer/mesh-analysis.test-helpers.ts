import type { MeshInput } from "./mesh-analysis";

/** The 12 outward-facing triangles of an axis-aligned cube, as a triangle soup (three corners each, unwelded). */
export function cubeSoup(size = 1, at: [number, number, number] = [0, 0, 0]): number[][] {
  const [ox, oy, oz] = at;
  const p = (x: number, y: number, z: number) => [ox + x * size, oy + y * size, oz + z * size];
  const c = [p(0, 0, 0), p(1, 0, 0), p(1, 1, 0), p(0, 1, 0), p(0, 0, 1), p(1, 0, 1), p(1, 1, 1), p(0, 1, 1)];
  // Counter-clockwise seen from outside.
  const faces = [
    [0, 3, 2, 1], // z = 0
    [4, 5, 6, 7], // z = 1
    [0, 1, 5, 4], // y = 0
    [3, 7, 6, 2], // y = 1
    [0, 4, 7, 3], // x = 0
    [1, 2, 6, 5], // x = 1
  ];
  const tris: number[][] = [];
  for (const [a, b, cc, d] of faces) {
    tris.push([...c[a!]!, ...c[b!]!, ...c[cc!]!], [...c[a!]!, ...c[cc!]!, ...c[d!]!]);
  }
  return tris;
}

/** A soup of triangles (nine numbers each) as an indexed mesh with three vertices per triangle. */
export function soupMesh(tris: number[][]): MeshInput {
  const positions = new Float32Array(tris.flat());
  const indices = new Uint32Array(tris.length * 3);
  for (let i = 0; i < indices.length; i++) indices[i] = i;
  return { positions, indices };
}
