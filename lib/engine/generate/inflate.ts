/**
 * Silhouette inflation: a closed, two-manifold "pillow" mesh whose front and back
 * height fields share the outline. Heights are the union of the medial balls (every
 * ridge point of the distance transform carries a sphere of its distance), so a disc
 * inflates to a sphere and a thin limb to a tube of its own radius.
 */
import { InputContentError } from "./errors";
import { buildGridSolid, cornerCounts, regularizeGridMask } from "./grid-mesh";
import { cleanMask, countSet, distanceTransform, maskBounds, resampleMask } from "./mask-ops";
import { flipWinding, meshBounds } from "./mesh-ops";

/**
 * Heights over a point grid: `inside` points get the height of the union of medial
 * balls, the others 0. `offset` is subtracted from the distances (0.5 for cell centres).
 */
export function inflateHeights(inside: Uint8Array, w: number, h: number, offset = 0): Float32Array {
  const n = w * h;
  const feature = new Uint8Array(n);
  for (let p = 0; p < n; p++) feature[p] = inside[p] ? 0 : 1;
  const d = distanceTransform(feature, w, h);
  for (let p = 0; p < n; p++) d[p] = inside[p] ? Math.max(0.01, d[p]! - offset) : 0;
  const out = new Float32Array(n);
  // Ridge points: no neighbour climbs at a slope near 1 (the distance's gradient).
  const ridge: number[] = [];
  let cost = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const p = y * w + x;
      if (!inside[p]) continue;
      const dp = d[p]!;
      let slope = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (!dx && !dy) continue;
          const s = (d[p + dy * w + dx]! - dp) / (dx && dy ? Math.SQRT2 : 1);
          if (s > slope) slope = s;
        }
      }
      if (slope < 0.8) { ridge.push(p); cost += dp * dp * 4; }
    }
  }
  // Keep the painting bounded on huge grids: subsample the ridge.
  const stride = Math.max(1, Math.ceil(cost / 4e7));
  for (let k = 0; k < ridge.length; k += stride) {
    const p = ridge[k]!;
    const cx = p % w, cy = (p - cx) / w;
    const r = d[p]!, r2 = r * r;
    const y0 = Math.max(0, Math.ceil(cy - r)), y1 = Math.min(h - 1, Math.floor(cy + r));
    for (let y = y0; y <= y1; y++) {
      const dy2 = (y - cy) * (y - cy);
      const span = Math.sqrt(Math.max(0, r2 - dy2));
      const x0 = Math.max(0, Math.ceil(cx - span)), x1 = Math.min(w - 1, Math.floor(cx + span));
      for (let x = x0; x <= x1; x++) {
        const q = y * w + x;
        if (!inside[q]) continue;
        const hq = Math.sqrt(Math.max(0, r2 - dy2 - (x - cx) * (x - cx)));
        if (hq > out[q]!) out[q] = hq;
      }
    }
  }
  for (let p = 0; p < n; p++) if (inside[p] && out[p]! < d[p]!) out[p] = d[p]!;
  return out;
}

export interface InflateOptions {
  /** Grid cells across the silhouette's longer side. */
  cells: number;
  /** Never emit more triangles than this. */
  maxTriangles: number;
  /** Height of the result in millimetres (default 100). */
  heightMm?: number;
  /** Depth scale of the inflation (1 = round cross-sections). */
  depthScale?: number;
}

export interface InflatedMesh {
  positions: Float32Array;
  indices: Uint32Array;
  /** Front projection into the source image (glTF uv, v = 0 at the top). */
  uvs: Float32Array;
  /** Cells across the longer side actually used. */
  cells: number;
}

/** Inflates the foreground of `mask` (w x h pixels): millimetres, +Y up, min Y = 0. */
export function inflateSilhouette(mask: Uint8Array, w: number, h: number, opts: InflateOptions): InflatedMesh {
  const b = maskBounds(mask, w, h);
  if (!b) throw new InputContentError("the image has no foreground");
  const bw = b.x1 - b.x0 + 1, bh = b.y1 - b.y0 + 1;
  const long = Math.max(bw, bh);
  const pad = 2;
  let cells = Math.max(8, Math.round(opts.cells));
  let grid: Uint8Array;
  let gw: number, gh: number, cellPx: number;
  for (;;) {
    cellPx = long / cells;
    const gwi = Math.max(1, Math.ceil(bw / cellPx - 1e-6)), ghi = Math.max(1, Math.ceil(bh / cellPx - 1e-6));
    grid = resampleMask(mask, w, h, b.x0, b.y0, cellPx, gwi, ghi, pad);
    gw = gwi + 2 * pad;
    gh = ghi + 2 * pad;
    cleanMask(grid, gw, gh, Math.max(4, Math.round(countSet(grid) * 0.002)), 0);
    regularizeGridMask(grid, gw, gh, true);
    const tris = countSet(grid) * 4;
    if (tris <= opts.maxTriangles || cells <= 8) break;
    cells = Math.max(8, Math.floor(cells * Math.sqrt(opts.maxTriangles / tris) * 0.97));
  }
  if (countSet(grid) === 0) throw new InputContentError("the silhouette is too small");

  const counts = cornerCounts(grid, gw, gh);
  const inside = new Uint8Array(counts.length);
  for (let v = 0; v < counts.length; v++) inside[v] = counts[v] === 4 ? 1 : 0;
  const top = inflateHeights(inside, gw + 1, gh + 1);
  const depthScale = opts.depthScale ?? 1;
  for (let v = 0; v < top.length; v++) top[v] = top[v]! * depthScale;
  const bottom = top.map((t) => -t);
  const solid = buildGridSolid({ mask: grid, gw, gh, top, bottom, sharedRim: true, rimSmoothing: 2 });

  const pos = solid.positions;
  const nv = pos.length / 3;
  const uvs = new Float32Array(nv * 2);
  for (let v = 0; v < nv; v++) {
    uvs[v * 2] = (b.x0 + (pos[v * 3]! - pad) * cellPx) / w;
    uvs[v * 2 + 1] = (b.y0 + (pos[v * 3 + 1]! - pad) * cellPx) / h;
  }
  // Grid frame (column, row, height) -> millimetres, +Y up: mirrors y, so flip winding.
  const gb = meshBounds(pos);
  const s = (opts.heightMm ?? 100) / Math.max(1e-9, gb.max[1] - gb.min[1]);
  const xc = (gb.min[0] + gb.max[0]) / 2;
  for (let v = 0; v < nv; v++) {
    pos[v * 3] = (pos[v * 3]! - xc) * s;
    pos[v * 3 + 1] = (gb.max[1] - pos[v * 3 + 1]!) * s;
    pos[v * 3 + 2] = pos[v * 3 + 2]! * s;
  }
  flipWinding(solid.indices);
  return { positions: pos, indices: solid.indices, uvs, cells };
}
