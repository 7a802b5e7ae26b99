/**
 * Wall thickness per triangle: a ray from the triangle's centre straight into the solid (against
 * its normal) to the first wall it leaves through (a triangle facing the same way), searched in a
 * uniform grid with a 3D DDA walk. Only distances up to `maxDistance` are looked for (thin walls
 * are what matters; a longer walk costs time for nothing); farther or no wall is Infinity,
 * degenerate triangles NaN. Runs in the analysis worker.
 */
import { faceNormals } from "./face-normals";
import type { MeshInput } from "./mesh-analysis";

/**
 * The thinnest wall the panel accepts, in mm: two lines of a 0.4 mm FDM nozzle, the common
 * minimum; resin printers manage less, so this errs on the safe side.
 */
export const MIN_WALL_MM = 0.8;

/** Each triangle's wall thickness in model units (Infinity beyond `maxDistance`, NaN when degenerate). */
export function wallThickness({ positions: p, indices }: MeshInput, maxDistance: number): Float32Array {
  const n = Math.floor(indices.length / 3);
  const out = new Float32Array(n).fill(Infinity);
  if (!n || !(maxDistance > 0)) return out;
  let minX = Infinity,
    minY = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    maxZ = -Infinity;
  for (const i of indices) {
    const x = p[i * 3] ?? 0,
      y = p[i * 3 + 1] ?? 0,
      z = p[i * 3 + 2] ?? 0;
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (z < minZ) minZ = z;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
    if (z > maxZ) maxZ = z;
  }
  // About two triangles per cell on average, cubic cells.
  const sx = maxX - minX || 1e-9,
    sy = maxY - minY || 1e-9,
    sz = maxZ - minZ || 1e-9;
  const cell = Math.max(Math.cbrt((sx * sy * sz) / Math.max(1, n / 2)), Math.max(sx, sy, sz) / 256, 1e-9);
  const gx = Math.max(1, Math.ceil(sx / cell)),
    gy = Math.max(1, Math.ceil(sy / cell)),
    gz = Math.max(1, Math.ceil(sz / cell));
  const cellOf = (v: number, lo: number, g: number) => Math.min(g - 1, Math.max(0, Math.floor((v - lo) / cell)));
  // Two passes (count, fill) into one flat list per cell.
  const start = new Uint32Array(gx * gy * gz + 1);
  const forCells = (t: number, visit: (c: number) => void) => {
    let x0 = Infinity,
      y0 = Infinity,
      z0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity,
      z1 = -Infinity;
    for (let k = 0; k < 3; k++) {
      const i = (indices[t * 3 + k] ?? 0) * 3;
      const x = p[i] ?? 0,
        y = p[i + 1] ?? 0,
        z = p[i + 2] ?? 0;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      z0 = Math.min(z0, z);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
      z1 = Math.max(z1, z);
    }
    const ax = cellOf(x0, minX, gx),
      bx = cellOf(x1, minX, gx),
      ay = cellOf(y0, minY, gy),
      by = cellOf(y1, minY, gy),
      az = cellOf(z0, minZ, gz),
      bz = cellOf(z1, minZ, gz);
    for (let z = az; z <= bz; z++) for (let y = ay; y <= by; y++) for (let x = ax; x <= bx; x++) visit((z * gy + y) * gx + x);
  };
  for (let t = 0; t < n; t++) forCells(t, (c) => (start[c + 1] = (start[c + 1] ?? 0) + 1));
  for (let c = 0; c < gx * gy * gz; c++) start[c + 1] = (start[c + 1] ?? 0) + (start[c] ?? 0);
  const fill = start.slice(0, -1);
  const items = new Uint32Array(start[gx * gy * gz] ?? 0);
  for (let t = 0; t < n; t++)
    forCells(t, (c) => {
      const at = fill[c] ?? 0;
      items[at] = t;
      fill[c] = at + 1;
    });

  // Unit normals (zero for degenerate triangles).
  const normals = faceNormals(p, indices);

  const eps = 1e-6 * Math.max(sx, sy, sz);
  const seen = new Int32Array(n).fill(-1);
  for (let t = 0; t < n; t++) {
    const dx = -(normals[t * 3] ?? 0),
      dy = -(normals[t * 3 + 1] ?? 0),
      dz = -(normals[t * 3 + 2] ?? 0);
    if (dx === 0 && dy === 0 && dz === 0) {
      out[t] = NaN;
      continue;
    }
    const a = (indices[t * 3] ?? 0) * 3,
      b = (indices[t * 3 + 1] ?? 0) * 3,
      c = (indices[t * 3 + 2] ?? 0) * 3;
    const ox = ((p[a] ?? 0) + (p[b] ?? 0) + (p[c] ?? 0)) / 3,
      oy = ((p[a + 1] ?? 0) + (p[b + 1] ?? 0) + (p[c + 1] ?? 0)) / 3,
      oz = ((p[a + 2] ?? 0) + (p[b + 2] ?? 0) + (p[c + 2] ?? 0)) / 3;
    // 3D DDA from the origin's cell.
    let cx = cellOf(ox, minX, gx),
      cy = cellOf(oy, minY, gy),
      cz = cellOf(oz, minZ, gz);
    const stepX = dx > 0 ? 1 : -1,
      stepY = dy > 0 ? 1 : -1,
      stepZ = dz > 0 ? 1 : -1;
    const nextX = minX + (cx + (dx > 0 ? 1 : 0)) * cell,
      nextY = minY + (cy + (dy > 0 ? 1 : 0)) * cell,
      nextZ = minZ + (cz + (dz > 0 ? 1 : 0)) * cell;
    let tMaxX = dx !== 0 ? (nextX - ox) / dx : Infinity,
      tMaxY = dy !== 0 ? (nextY - oy) / dy : Infinity,
      tMaxZ = dz !== 0 ? (nextZ - oz) / dz : Infinity;
    const tDeltaX = dx !== 0 ? cell / Math.abs(dx) : Infinity,
      tDeltaY = dy !== 0 ? cell / Math.abs(dy) : Infinity,
      tDeltaZ = dz !== 0 ? cell / Math.abs(dz) : Infinity;
    let best = maxDistance;
    let found = false;
    for (;;) {
      const ci = (cz * gy + cy) * gx + cx;
      for (let k = start[ci] ?? 0; k < (start[ci + 1] ?? 0); k++) {
        const s = items[k] ?? 0;
        if (s === t || (seen[s] ?? -1) === t) continue;
        seen[s] = t;
        // Only a wall facing the same way is where the ray leaves the solid.
        if ((normals[s * 3] ?? 0) * dx + (normals[s * 3 + 1] ?? 0) * dy + (normals[s * 3 + 2] ?? 0) * dz <= 0) continue;
        const hit = rayTriangle(p, indices, s, ox, oy, oz, dx, dy, dz);
        if (hit > eps && hit < best) {
          best = hit;
          found = true;
        }
      }
      const tNext = Math.min(tMaxX, tMaxY, tMaxZ);
      if (tNext > best) break;
      if (tMaxX === tNext) {
        cx += stepX;
        if (cx < 0 || cx >= gx) break;
        tMaxX += tDeltaX;
      } else if (tMaxY === tNext) {
        cy += stepY;
        if (cy < 0 || cy >= gy) break;
        tMaxY += tDeltaY;
      } else {
        cz += stepZ;
        if (cz < 0 || cz >= gz) break;
        tMaxZ += tDeltaZ;
      }
    }
    if (found) out[t] = best;
  }
  return out;
}

/** Möller–Trumbore: the ray's distance to triangle s, or -1 when it misses. */
function rayTriangle(
  p: Float32Array,
  indices: Uint32Array,
  s: number,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
) {
  const a = (indices[s * 3] ?? 0) * 3,
    b = (indices[s * 3 + 1] ?? 0) * 3,
    c = (indices[s * 3 + 2] ?? 0) * 3;
  const e1x = (p[b] ?? 0) - (p[a] ?? 0),
    e1y = (p[b + 1] ?? 0) - (p[a + 1] ?? 0),
    e1z = (p[b + 2] ?? 0) - (p[a + 2] ?? 0);
  const e2x = (p[c] ?? 0) - (p[a] ?? 0),
    e2y = (p[c + 1] ?? 0) - (p[a + 1] ?? 0),
    e2z = (p[c + 2] ?? 0) - (p[a + 2] ?? 0);
  const hx = dy * e2z - dz * e2y,
    hy = dz * e2x - dx * e2z,
    hz = dx * e2y - dy * e2x;
  const det = e1x * hx + e1y * hy + e1z * hz;
  if (Math.abs(det) < 1e-20) return -1;
  const f = 1 / det;
  const sx = ox - (p[a] ?? 0),
    sy = oy - (p[a + 1] ?? 0),
    sz = oz - (p[a + 2] ?? 0);
  const u = f * (sx * hx + sy * hy + sz * hz);
  if (u < 0 || u > 1) return -1;
  const qx = sy * e1z - sz * e1y,
    qy = sz * e1x - sx * e1z,
    qz = sx * e1y - sy * e1x;
  const v = f * (dx * qx + dy * qy + dz * qz);
  if (v < 0 || u + v > 1) return -1;
  return f * (e2x * qx + e2y * qy + e2z * qz);
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
