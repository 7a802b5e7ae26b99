/**
 * The figures of the wall-thickness search that need no spatial index: the thinnest wall the
 * panel accepts, how far the search looks, and counting and placing its answers. Apart from
 * wall-thickness.ts so the print panel does not load three-mesh-bvh with them (the search runs
 * in the analysis worker).
 */
/**
 * The thinnest wall the panel accepts, in mm: two lines of a 0.4 mm FDM nozzle, the common
 * minimum; resin printers manage less, so this errs on the safe side.
 */
export const MIN_WALL_MM = 0.8;

/** Puts `part` (wallThicknessInOrder's answer from place `from`) into `thickness`, by triangle. */
export function placeThickness(thickness: Float32Array, part: Float32Array, order: ArrayLike<number>, from: number): void {
  for (let i = 0; i < part.length; i++) thickness[order[from + i] ?? 0] = part[i] ?? NaN;
}

/** How many triangles have a wall thinner than `limit` (model units). */
export function countThinner(thickness: Float32Array, limit: number): number {
  let count = 0;
  for (const t of thickness) if (t < limit) count++;
  return count;
}

/** Models up to this many triangles are searched across their whole diagonal; larger ones up to a tenth of it. */
const FULL_SEARCH_TRIANGLES = 200_000;

/**
 * How far walls are looked for: the whole diagonal for models of up to 200k triangles (any
 * size reads right), a tenth of it beyond (a ray's walk grows with the distance; a tenth is
 * still 10 mm for a 100 mm model, far above any minimum wall).
 */
export function searchedThickness({ min, max, triangles }: { min: readonly number[]; max: readonly number[]; triangles: number }): number {
  const diagonal = Math.hypot((max[0] ?? 0) - (min[0] ?? 0), (max[1] ?? 0) - (min[1] ?? 0), (max[2] ?? 0) - (min[2] ?? 0));
  return triangles <= FULL_SEARCH_TRIANGLES ? diagonal : 0.1 * diagonal;
}
