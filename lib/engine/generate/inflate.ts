/**
 * Silhouette inflation: a closed, two-manifold "pillow" mesh whose front and back
 * height fields share the outline. Heights are the union of the medial balls (every
 * ridge point of the distance transform carries a sphere of its distance), so a disc
 * inflates to a sphere and a thin limb to a tube of its own radius.
 */
import { InputContentError } from "./errors";
import { boxMean } from "./box-filter";
import { buildGridSolid, cornerCounts, regularizeGridMask } from "./grid-mesh";
import { INF, cleanMask, countSet, distanceTransform, maskBounds, powerTransform, resampleMask } from "./mask-ops";
import { flipWinding, meshBounds } from "./mesh-ops";

/**
 * Heights over a point grid: `inside` points get the height of the union of all
 * inscribed balls (every inside point q carries a sphere of radius d(q), its distance to
 * the outline), the others 0. The union's squared height is
 * H(p) = max_q (d(q)^2 - |p - q|^2), a power transform computed exactly in linear time;
 * it is a maximum of paraboloids, so where two medial branches meet it has a crease.
 * `smoothing` (grid units) blurs H with a Gaussian of that sigma and adds back 2 sigma^2,
 * which leaves a single paraboloid (a sphere) exactly as it was and rounds the creases.
 * `offset` is subtracted from the distances (0.5 for cell centres).
 */
export function inflateHeights(inside: Uint8Array, w: number, h: number, offset = 0, smoothing = 0): Float32Array {
  const n = w * h;
  const feature = new Uint8Array(n);
  for (let p = 0; p < n; p++) feature[p] = inside[p] ? 0 : 1;
  const d = distanceTransform(feature, w, h);
  const cost = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    const r = inside[p] ? Math.max(0.01, d[p]! - offset) : 0;
    cost[p] = inside[p] ? -r * r : INF;
  }
  const H = powerTransform(cost, w, h);
  for (let p = 0; p < n; p++) H[p] = -H[p]!;
  const out = new Float32Array(n);
  if (smoothing > 0) {
    // Three box passes of radius r: a near-Gaussian of variance r^2 + r per axis.
    const r = Math.max(1, Math.round((Math.sqrt(1 + 4 * smoothing * smoothing) - 1) / 2));
    const S = Float32Array.from(H),
      tmp = new Float32Array(n);
    for (let k = 0; k < 3; k++) boxMean(S, w, h, r, S, tmp);
    const lift = 2 * (r * r + r);
    // Outside the outline H is not a paraboloid any more, so the blur is only trusted
    // from 3 sigma inwards; towards the outline the exact union takes over.
    const reach = 3 * Math.sqrt(r * r + r);
    for (let p = 0; p < n; p++) {
      if (!inside[p]) continue;
      const t = Math.min(1, d[p]! / reach),
        wgt = t * t * (3 - 2 * t);
      out[p] = Math.sqrt(Math.max(1e-4, H[p]! + wgt * (S[p]! + lift - H[p]!)));
    }
  } else {
    for (let p = 0; p < n; p++) if (inside[p]) out[p] = Math.sqrt(Math.max(1e-4, H[p]!));
  }
  return out;
}

export interface InflateOptions {
  /** Grid cells across the silhouette's longer side. */
  cells: number;
  /** Never emit more triangles than this. */
  maxTriangles: number;
  /** Height of the result in millimetres (default 100). */
  heightMm?: number;
  /** Sigma of the crease rounding, as a fraction of `cells` (default 0.02; see inflateHeights). */
  creaseSmoothing?: number;
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
  const bw = b.x1 - b.x0 + 1,
    bh = b.y1 - b.y0 + 1;
  const long = Math.max(bw, bh);
  const pad = 2;
  let cells = Math.max(8, Math.round(opts.cells));
  let grid: Uint8Array;
  let gw: number, gh: number, cellPx: number;
  for (;;) {
    cellPx = long / cells;
    const gwi = Math.max(1, Math.ceil(bw / cellPx - 1e-6)),
      ghi = Math.max(1, Math.ceil(bh / cellPx - 1e-6));
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
  const top = inflateHeights(inside, gw + 1, gh + 1, 0, (opts.creaseSmoothing ?? 0.02) * cells);
  const depthScale = opts.depthScale ?? 1;
  for (let v = 0; v < top.length; v++) top[v] = top[v]! * depthScale;
  const bottom = top.map((t) => -t);
  const solid = buildGridSolid({ mask: grid, gw, gh, top, bottom, rimSmoothing: 2 });

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
