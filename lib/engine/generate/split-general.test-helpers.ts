// Meshes shared by the split-general exact tests: closed unit-voxel solids and a square pyramid.
import type { TriMesh, Vec3 } from "./split-general";

export const mesh = (p: number[][], i: number[]): TriMesh => ({ positions: new Float64Array(p.flat()), indices: Uint32Array.from(i) });

/**
 * Closed surface of a set of unit voxels (cell [i,j,k] spans i..i+1 etc.), shared grid
 * vertices, outward quads split (0,1,2)(0,2,3), emitted voxel by voxel in list order,
 * faces in the order +x -x +y -y +z -z.
 */
export function voxels(cells: Vec3[], offset: Vec3 = [0, 0, 0]): TriMesh {
  const set = new Set(cells.map((c) => c.join(",")));
  const pos: number[] = [];
  const ids = new Map<string, number>();
  const idx: number[] = [];
  const vid = (q: number[]) => {
    const key = q.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      id = pos.length / 3;
      ids.set(key, id);
      pos.push(q[0]! + offset[0], q[1]! + offset[1], q[2]! + offset[2]);
    }
    return id;
  };
  for (const c of cells)
    for (const [a, s] of [
      [0, 1],
      [0, -1],
      [1, 1],
      [1, -1],
      [2, 1],
      [2, -1],
    ] as const) {
      const nb = [...c];
      nb[a]! += s;
      if (set.has(nb.join(","))) continue;
      // u x v = the face axis: x -> (y, z), y -> (z, x), z -> (x, y).
      const u = (a + 1) % 3,
        v = (a + 2) % 3;
      const base = [...c];
      if (s > 0) base[a]! += 1;
      const corner = (du: number, dv: number) => {
        const q = [...base];
        q[u]! += du;
        q[v]! += dv;
        return vid(q);
      };
      const q = s > 0 ? [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)] : [corner(0, 0), corner(0, 1), corner(1, 1), corner(1, 0)];
      idx.push(q[0]!, q[1]!, q[2]!, q[0]!, q[2]!, q[3]!);
    }
  return { positions: new Float64Array(pos), indices: Uint32Array.from(idx) };
}
/** Voxels of the box [x0, x1) x [y0, y1) x [z0, z1) (integer bounds). */
export function boxCells(x0: number, x1: number, y0: number, y1: number, z0: number, z1: number): Vec3[] {
  const out: Vec3[] = [];
  for (let i = x0; i < x1; i++) for (let j = y0; j < y1; j++) for (let k = z0; k < z1; k++) out.push([i, j, k]);
  return out;
}
/** A 4 x 2 x 4 slab (y 0..2) with a 2 x 2 x 2 box on its middle (x, z 1..3, y 2..4). */
export const boxOnBox = voxels([...boxCells(0, 4, 0, 2, 0, 4), ...boxCells(1, 3, 2, 4, 1, 3)]);
/** The same upside down: the small box below (y 0..2), the slab on it (y 2..4). */
export const boxUnderBox = voxels([...boxCells(1, 3, 0, 2, 1, 3), ...boxCells(0, 4, 2, 4, 0, 4)]);
/** 4 x 4 blocks at z 0..4 and 8..12 joined by a 2 x 2 bar (x, y 1..3). */
export const dumbbell = voxels([...boxCells(0, 4, 0, 4, 0, 4), ...boxCells(1, 3, 1, 3, 4, 8), ...boxCells(0, 4, 0, 4, 8, 12)]);
/** The dumbbell's halves cut at z = 6: a block with a 2-long stub whose cap lies on the cut. */
export const halfLow = voxels([...boxCells(0, 4, 0, 4, 0, 4), ...boxCells(1, 3, 1, 3, 4, 6)]);
export const halfHigh = voxels([...boxCells(1, 3, 1, 3, 6, 8), ...boxCells(0, 4, 0, 4, 8, 12)]);

/** Square pyramid: base (+-1, +-1, 0), apex (0, 0, 2); section at z a square of side 2 - z. */
export const pyramid = mesh(
  [
    [-1, -1, 0],
    [1, -1, 0],
    [1, 1, 0],
    [-1, 1, 0],
    [0, 0, 2],
  ],
  [0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4, 0, 2, 1, 0, 3, 2],
);
