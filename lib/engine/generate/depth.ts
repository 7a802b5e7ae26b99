/**
 * Depth maps and relief solids from one image. Depth = luminance, median-filtered and
 * lightly blurred, stretched to 0..1 over the subject (1 = near). The relief is a closed
 * plate: a flat base plus the depth as a height field, `width` mm wide.
 */
import type { Scene } from "@/lib/engine/mesh/types";
import { buildGridSolid, regularizeGridMask } from "./grid-mesh";
import { type DecodedImage, foregroundMask } from "./image-input";
import { resampleMask } from "./mask-ops";
import { flipWinding, meshBounds, plainPart } from "./mesh-ops";

export interface DepthMap {
  width: number;
  height: number;
  /** 0..1 per pixel, row-major; 0 outside the subject. */
  gray: Float32Array;
  /** Subject mask (1 = subject) when the background was removed, else null. */
  mask: Uint8Array | null;
}

export interface DepthOptions {
  rmbg: boolean;
  /** Background colour tolerance 0..1 (degree_rmbg). */
  tolerance: number;
  /** Engrave: invert the depth inside the subject. */
  invert: boolean;
}

/** Longest side of the depth map for a model type. */
export const depthSizeFor = (modelType: "base" | "pro"): number => (modelType === "pro" ? 2048 : 1024);

/** 3x3 median of a float image (clamped borders), via a 19-exchange sorting network. */
export function median3(src: Float32Array, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - 1) * w, y1 = y * w, y2 = Math.min(h - 1, y + 1) * w;
    for (let x = 0; x < w; x++) {
      const xa = x > 0 ? x - 1 : 0, xb = x < w - 1 ? x + 1 : x;
      let v0 = src[y0 + xa]!, v1 = src[y0 + x]!, v2 = src[y0 + xb]!;
      let v3 = src[y1 + xa]!, v4 = src[y1 + x]!, v5 = src[y1 + xb]!;
      let v6 = src[y2 + xa]!, v7 = src[y2 + x]!, v8 = src[y2 + xb]!;
      let t: number;
      if (v1 > v2) { t = v1; v1 = v2; v2 = t; } if (v4 > v5) { t = v4; v4 = v5; v5 = t; } if (v7 > v8) { t = v7; v7 = v8; v8 = t; }
      if (v0 > v1) { t = v0; v0 = v1; v1 = t; } if (v3 > v4) { t = v3; v3 = v4; v4 = t; } if (v6 > v7) { t = v6; v6 = v7; v7 = t; }
      if (v1 > v2) { t = v1; v1 = v2; v2 = t; } if (v4 > v5) { t = v4; v4 = v5; v5 = t; } if (v7 > v8) { t = v7; v7 = v8; v8 = t; }
      if (v0 > v3) { t = v0; v0 = v3; v3 = t; } if (v5 > v8) { t = v5; v5 = v8; v8 = t; } if (v4 > v7) { t = v4; v4 = v7; v7 = t; }
      if (v3 > v6) { t = v3; v3 = v6; v6 = t; } if (v1 > v4) { t = v1; v1 = v4; v4 = t; } if (v2 > v5) { t = v2; v2 = v5; v5 = t; }
      if (v4 > v7) { t = v4; v4 = v7; v7 = t; } if (v4 > v2) { t = v4; v4 = v2; v2 = t; } if (v6 > v4) { t = v6; v6 = v4; v4 = t; }
      if (v4 > v2) { t = v4; v4 = v2; v2 = t; }
      out[y1 + x] = v4;
    }
  }
  return out;
}

/** Separable [1 2 1] / 4 blur, in place. */
export function blur121(img: Float32Array, w: number, h: number): void {
  const row = new Float32Array(Math.max(w, h));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) row[x] = img[y * w + x]!;
    for (let x = 0; x < w; x++) img[y * w + x] = 0.25 * row[Math.max(0, x - 1)]! + 0.5 * row[x]! + 0.25 * row[Math.min(w - 1, x + 1)]!;
  }
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) row[y] = img[y * w + x]!;
    for (let y = 0; y < h; y++) img[y * w + x] = 0.25 * row[Math.max(0, y - 1)]! + 0.5 * row[y]! + 0.25 * row[Math.min(h - 1, y + 1)]!;
  }
}

export function depthFromImage(img: DecodedImage, opts: DepthOptions): DepthMap {
  const { width: w, height: h, data } = img;
  const n = w * h;
  const lum = new Float32Array(n);
  for (let p = 0; p < n; p++) lum[p] = (0.2126 * data[p * 4]! + 0.7152 * data[p * 4 + 1]! + 0.0722 * data[p * 4 + 2]!) / 255;
  const smooth = median3(lum, w, h);
  blur121(smooth, w, h);
  const mask = opts.rmbg ? foregroundMask(img, { rmbg: true, tolerance: opts.tolerance }) : null;
  // Stretch the 1st..99th percentile of the subject to 0..1.
  const bins = 1024;
  const hist = new Uint32Array(bins);
  let count = 0;
  for (let p = 0; p < n; p++) {
    if (mask && !mask[p]) continue;
    hist[Math.min(bins - 1, Math.floor(smooth[p]! * bins))]!++;
    count++;
  }
  const pct = (q: number) => {
    let acc = 0;
    for (let i = 0; i < bins; i++) { acc += hist[i]!; if (acc >= q * count) return i / bins; }
    return 1;
  };
  const lo = pct(0.01), hi = Math.max(pct(0.99), lo + 1 / 64);
  const gray = new Float32Array(n);
  for (let p = 0; p < n; p++) {
    if (mask && !mask[p]) continue;
    const d = Math.min(1, Math.max(0, (smooth[p]! - lo) / (hi - lo)));
    gray[p] = opts.invert ? 1 - d : d;
  }
  return { width: w, height: h, gray, mask };
}

export interface ReliefOptions {
  /** Plate width in millimetres (X extent of the result). */
  widthMm: number;
  /** Height of the relief above the base, millimetres. */
  reliefMm: number;
  /** Base thickness, millimetres. */
  baseMm: number;
  /** 0 square (the image frame), 1 circle; ignored when the depth has a subject mask. */
  shape: 0 | 1;
  /** Cells across the longer side (default 256). */
  cells?: number;
}

/** The closed relief solid: base on Y = 0, relief facing +Y, image top towards -Z. */
export function reliefScene(depth: DepthMap, opts: ReliefOptions): Scene {
  const { width: W, height: H, gray } = depth;
  const circle = !depth.mask && opts.shape === 1;
  // Region of the image used: the frame, or its centred square for a circle.
  const side = Math.min(W, H);
  const rx0 = circle ? (W - side) / 2 : 0, ry0 = circle ? (H - side) / 2 : 0;
  const rw = circle ? side : W, rh = circle ? side : H;
  const cells = opts.cells ?? 256;
  const cellPx = Math.max(rw, rh) / cells;
  const gwi = Math.max(2, Math.round(rw / cellPx)), ghi = Math.max(2, Math.round(rh / cellPx));
  const pad = 1;
  const gw = gwi + 2 * pad, gh = ghi + 2 * pad;
  let mask: Uint8Array;
  if (depth.mask) {
    mask = resampleMask(depth.mask, W, H, 0, 0, cellPx, gwi, ghi, pad);
  } else {
    mask = new Uint8Array(gw * gh);
    const r = Math.min(gwi, ghi) / 2;
    for (let y = pad; y < gh - pad; y++) {
      for (let x = pad; x < gw - pad; x++) {
        const inside = !circle || (x + 0.5 - gw / 2) ** 2 + (y + 0.5 - gh / 2) ** 2 <= r * r;
        mask[y * gw + x] = inside ? 1 : 0;
      }
    }
  }
  regularizeGridMask(mask, gw, gh, false);
  // Mean depth per cell, then per corner (mean of the set cells around it).
  const cellDepth = new Float32Array(gw * gh);
  for (let y = 0; y < ghi; y++) {
    for (let x = 0; x < gwi; x++) {
      const px0 = Math.floor(rx0 + x * cellPx), px1 = Math.max(px0 + 1, Math.floor(rx0 + (x + 1) * cellPx));
      const py0 = Math.floor(ry0 + y * cellPx), py1 = Math.max(py0 + 1, Math.floor(ry0 + (y + 1) * cellPx));
      let s = 0, k = 0;
      for (let py = py0; py < Math.min(H, py1); py++) for (let px = px0; px < Math.min(W, px1); px++) { s += gray[py * W + px]!; k++; }
      cellDepth[(y + pad) * gw + x + pad] = k ? s / k : 0;
    }
  }
  const vw = gw + 1;
  const top = new Float32Array(vw * (gh + 1));
  const bottom = new Float32Array(top.length);
  for (let j = 0; j <= gh; j++) {
    for (let i = 0; i <= gw; i++) {
      let s = 0, k = 0;
      for (let c = 0; c < 4; c++) {
        const x = i - 1 + (c & 1), y = j - 1 + (c >> 1);
        if (x < 0 || y < 0 || x >= gw || y >= gh || !mask[y * gw + x]) continue;
        s += cellDepth[y * gw + x]!;
        k++;
      }
      top[j * vw + i] = opts.baseMm + opts.reliefMm * (k ? s / k : 0);
    }
  }
  const cx = gw / 2, cy = gh / 2, r = Math.min(gwi, ghi) / 2;
  const solid = buildGridSolid({
    mask, gw, gh, top, bottom, sharedRim: false,
    rimSmoothing: depth.mask ? 2 : 0,
    projectRim: circle ? (xy, o) => {
      const dx = xy[o]! - cx, dy = xy[o + 1]! - cy, l = Math.hypot(dx, dy) || 1;
      xy[o] = cx + (dx / l) * r;
      xy[o + 1] = cy + (dy / l) * r;
    } : undefined,
  });
  // Grid (column, row, height) -> (X, Y = height, Z = row): a mirror, so flip winding.
  const p = solid.positions;
  const b = meshBounds(p);
  const s = opts.widthMm / Math.max(1e-9, b.max[0] - b.min[0]);
  const mx = (b.min[0] + b.max[0]) / 2, my = (b.min[1] + b.max[1]) / 2;
  for (let v = 0; v < p.length; v += 3) {
    const x = p[v]!, y = p[v + 1]!, hgt = p[v + 2]!;
    p[v] = (x - mx) * s;
    p[v + 1] = hgt;
    p[v + 2] = (y - my) * s;
  }
  flipWinding(solid.indices);
  return { parts: [plainPart("relief", p, solid.indices)] };
}
