/**
 * Edge-preserving smoothing for depth maps: a self-guided filter (He, Sun & Tang, "Guided
 * Image Filtering") built from O(1)-per-pixel box filters, so the cost is O(n) whatever
 * the radius. Where the local variance is far below `eps` (flat, noisy areas) the output
 * is the local mean; where it is far above (edges, real detail) the input passes through.
 */
import { boxMean } from "./box-filter";

/**
 * Self-guided filter of `src` (values roughly 0..1): radius r pixels, regularisation eps
 * (a variance: detail with a local standard deviation well above sqrt(eps) is kept).
 * Returns a new array.
 */
export function guidedFilter(src: Float32Array, w: number, h: number, r: number, eps: number): Float32Array {
  const n = w * h;
  const tmp = new Float32Array(n);
  const mean = new Float32Array(n);
  const sq = new Float32Array(n);
  for (let p = 0; p < n; p++) sq[p] = src[p]! * src[p]!;
  const meanSq = new Float32Array(n);
  boxMean(src, w, h, r, mean, tmp);
  boxMean(sq, w, h, r, meanSq, tmp);
  // a = var / (var + eps), b = (1 - a) * mean; reuse the buffers.
  const a = sq,
    b = meanSq;
  for (let p = 0; p < n; p++) {
    const m = mean[p]!;
    const v = Math.max(0, meanSq[p]! - m * m);
    const ap = v / (v + eps);
    a[p] = ap;
    b[p] = (1 - ap) * m;
  }
  const meanA = mean;
  boxMean(a, w, h, r, meanA, tmp);
  const meanB = a;
  boxMean(b, w, h, r, meanB, tmp);
  const out = b;
  for (let p = 0; p < n; p++) out[p] = meanA[p]! * src[p]! + meanB[p]!;
  return out;
}

/**
 * Fast guided filter (He & Sun 2015): the coefficients a, b are computed on a copy
 * downsampled by 2 (radius halved) and upsampled bilinearly; the output still applies
 * them to the full-resolution input, so edges stay as sharp as the input's. About 3x
 * faster than guidedFilter at the same radius.
 */
export function fastGuidedFilter(src: Float32Array, w: number, h: number, r: number, eps: number): Float32Array {
  const lw = Math.ceil(w / 2),
    lh = Math.ceil(h / 2),
    ln = lw * lh;
  const low = new Float32Array(ln);
  for (let y = 0; y < lh; y++) {
    const y0 = 2 * y,
      y1 = Math.min(h - 1, y0 + 1);
    for (let x = 0; x < lw; x++) {
      const x0 = 2 * x,
        x1 = Math.min(w - 1, x0 + 1);
      low[y * lw + x] = 0.25 * (src[y0 * w + x0]! + src[y0 * w + x1]! + src[y1 * w + x0]! + src[y1 * w + x1]!);
    }
  }
  const lr = Math.max(1, Math.round(r / 2));
  const tmp = new Float32Array(ln),
    mean = new Float32Array(ln),
    sq = new Float32Array(ln),
    meanSq = new Float32Array(ln);
  for (let p = 0; p < ln; p++) sq[p] = low[p]! * low[p]!;
  boxMean(low, lw, lh, lr, mean, tmp);
  boxMean(sq, lw, lh, lr, meanSq, tmp);
  for (let p = 0; p < ln; p++) {
    const m = mean[p]!;
    const v = Math.max(0, meanSq[p]! - m * m);
    const ap = v / (v + eps);
    sq[p] = ap;
    meanSq[p] = (1 - ap) * m;
  }
  const A = mean,
    B = low;
  boxMean(sq, lw, lh, lr, A, tmp);
  boxMean(meanSq, lw, lh, lr, B, tmp);
  // Bilinear upsampling: full-res pixel x sits at low-res coordinate (x - 0.5) / 2.
  const out = new Float32Array(w * h);
  const xi = new Int32Array(w),
    xf = new Float32Array(w);
  for (let x = 0; x < w; x++) {
    const fx = Math.min(lw - 1, Math.max(0, (x - 0.5) / 2));
    xi[x] = Math.min(lw - 2, Math.floor(fx));
    xf[x] = fx - xi[x]!;
    if (lw === 1) {
      xi[x] = 0;
      xf[x] = 0;
    }
  }
  for (let y = 0; y < h; y++) {
    const fy = Math.min(lh - 1, Math.max(0, (y - 0.5) / 2));
    const y0 = lh === 1 ? 0 : Math.min(lh - 2, Math.floor(fy)),
      ty = lh === 1 ? 0 : fy - y0;
    const r0 = y0 * lw,
      r1 = lh === 1 ? r0 : r0 + lw;
    for (let x = 0; x < w; x++) {
      const i0 = xi[x]!,
        tx = xf[x]!,
        i1 = lw === 1 ? i0 : i0 + 1;
      const a = (A[r0 + i0]! * (1 - tx) + A[r0 + i1]! * tx) * (1 - ty) + (A[r1 + i0]! * (1 - tx) + A[r1 + i1]! * tx) * ty;
      const b = (B[r0 + i0]! * (1 - tx) + B[r0 + i1]! * tx) * (1 - ty) + (B[r1 + i0]! * (1 - tx) + B[r1 + i1]! * tx) * ty;
      out[y * w + x] = a * src[y * w + x]! + b;
    }
  }
  return out;
}
