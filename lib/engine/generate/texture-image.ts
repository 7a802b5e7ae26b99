/**
 * Image operations behind texture.ts, all on typed arrays (no per-pixel allocation):
 * sRGB <-> linear look-up tables, masked box blurs, push-pull hole filling, separable
 * resampling and de-shading. The PBR maps derived from an image are in texture-pbr.ts.
 */
import { boxBlur } from "./box-filter";
import type { DecodedImage } from "./image-input";

// ---------------------------------------------------------------------------------------
// Colour space

/** sRGB byte -> linear 0..1. */
export const SRGB_TO_LINEAR = (() => {
  const t = new Float32Array(256);
  for (let i = 0; i < 256; i++) {
    const c = i / 255;
    t[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }
  return t;
})();

const LIN_STEPS = 4096;
const LINEAR_TO_SRGB = (() => {
  const t = new Uint8Array(LIN_STEPS + 1);
  for (let i = 0; i <= LIN_STEPS; i++) {
    const c = i / LIN_STEPS;
    const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
    t[i] = Math.round(Math.min(1, Math.max(0, s)) * 255);
  }
  return t;
})();

/** Linear 0..1 (clamped) -> sRGB byte. */
export function linearToSrgb(c: number): number {
  const i = c <= 0 ? 0 : c >= 1 ? LIN_STEPS : Math.round(c * LIN_STEPS);
  return LINEAR_TO_SRGB[i]!;
}

/** Opaque RGBA8 sRGB from n linear RGB pixels (3 interleaved channels). */
export function linearRgbToRgba(rgb: Float32Array, n: number): Uint8Array {
  const lut = LINEAR_TO_SRGB;
  const out = new Uint8Array(n * 4);
  for (let p = 0; p < n; p++) {
    for (let k = 0; k < 3; k++) {
      const c = rgb[p * 3 + k]!;
      out[p * 4 + k] = lut[c <= 0 ? 0 : c >= 1 ? LIN_STEPS : (c * LIN_STEPS + 0.5) | 0]!;
    }
    out[p * 4 + 3] = 255;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Blurs and fills

/** Longest side of the grid low-frequency fields are estimated on. */
const FIELD_GRID = 256;

/**
 * Masked averages of several single-channel fields over a box of radius r (`passes`
 * times; 2 ~ a tent), evaluated on a grid of at most 256 cells along the longest side
 * (block sums, blurred) and interpolated bilinearly back to the subject pixels (weighted
 * by the blurred mask, so nothing leaks in from outside). Returns one array per field,
 * valid where mask is set (0 elsewhere). For smooth fields only: radius >> w / 256.
 */
export function smoothFields(fields: Float32Array[], mask: Uint8Array, w: number, h: number, r: number, passes: number): Float32Array[] {
  const f = Math.max(1, Math.floor(Math.max(w, h) / FIELD_GRID));
  const sw = Math.ceil(w / f),
    sh = Math.ceil(h / f),
    sn = sw * sh;
  const den = new Float32Array(sn);
  const nums = fields.map(() => new Float32Array(sn));
  const cellX = new Int32Array(w);
  for (let x = 0; x < w; x++) cellX[x] = (x / f) | 0;
  // One field at a time keeps the inner loops monomorphic.
  for (let i = 0; i <= fields.length; i++) {
    const src = fields[i],
      acc = i < fields.length ? nums[i]! : den;
    for (let y = 0; y < h; y++) {
      const srow = ((y / f) | 0) * sw;
      for (let x = 0, p = y * w; x < w; x++, p++) {
        if (!mask[p]) continue;
        const q = srow + cellX[x]!;
        acc[q] = acc[q]! + (src ? src[p]! : 1);
      }
    }
  }
  const tmp = new Float32Array(sn),
    rr = Math.max(1, Math.round(r / f));
  for (let k = 0; k < passes; k++) {
    boxBlur(den, sw, sh, rr, den, tmp);
    for (const a of nums) boxBlur(a, sw, sh, rr, a, tmp);
  }
  for (const a of nums) for (let q = 0; q < sn; q++) a[q] = den[q]! > 1e-9 ? a[q]! / den[q]! : 0;
  const cx0 = new Int32Array(w),
    cx1 = new Int32Array(w),
    ctx = new Float32Array(w);
  for (let x = 0; x < w; x++) {
    const fx = Math.min(sw - 1, Math.max(0, (x + 0.5) / f - 0.5));
    cx0[x] = Math.floor(fx);
    cx1[x] = Math.min(sw - 1, cx0[x]! + 1);
    ctx[x] = fx - cx0[x]!;
  }
  // Pre-weight the grids by the blurred mask: value = sum(w den g) / sum(w den).
  for (const a of nums) for (let q = 0; q < sn; q++) a[q] = a[q]! * den[q]!;
  return nums.map((g) => {
    const out = new Float32Array(w * h);
    for (let y = 0; y < h; y++) {
      const fy = Math.min(sh - 1, Math.max(0, (y + 0.5) / f - 0.5));
      const fl = Math.floor(fy),
        r0 = fl * sw,
        r1 = Math.min(sh - 1, fl + 1) * sw,
        ty = fy - fl,
        uy = 1 - ty;
      for (let x = 0, p = y * w; x < w; x++, p++) {
        if (!mask[p]) continue;
        const x0 = cx0[x]!,
          x1 = cx1[x]!,
          tx = ctx[x]!,
          ux = 1 - tx;
        const a = r0 + x0,
          b = r0 + x1,
          c = r1 + x0,
          d = r1 + x1;
        const ws = uy * (ux * den[a]! + tx * den[b]!) + ty * (ux * den[c]! + tx * den[d]!);
        if (ws > 1e-9) out[p] = (uy * (ux * g[a]! + tx * g[b]!) + ty * (ux * g[c]! + tx * g[d]!)) / ws;
      }
    }
    return out;
  });
}

/**
 * Push-pull fill: pixels with weight < 1 take (1 - weight) of a smooth extrapolation of
 * the weighted pixels (a mask-weighted image pyramid, upsampled bilinearly). Fills every
 * hole whatever its size, so bilinear sampling and mipmaps see no background halo.
 * `data` holds `c` interleaved channels; in place.
 */
export function pushPullFill(data: Float32Array, weight: Float32Array, w: number, h: number, c: number): void {
  let full = true;
  for (let p = 0; p < w * h; p++)
    if (weight[p]! < 1) {
      full = false;
      break;
    }
  if (full || (w === 1 && h === 1)) return;
  const W = (w + 1) >> 1,
    H = (h + 1) >> 1;
  const cd = new Float32Array(W * H * c),
    cw = new Float32Array(W * H);
  for (let Y = 0; Y < H; Y++) {
    for (let X = 0; X < W; X++) {
      const q = Y * W + X;
      let ws = 0;
      for (let dy = 0; dy < 2; dy++) {
        const y = 2 * Y + dy;
        if (y >= h) continue;
        for (let dx = 0; dx < 2; dx++) {
          const x = 2 * X + dx;
          if (x >= w) continue;
          const p = y * w + x,
            wt = weight[p]!;
          if (wt <= 0) continue;
          ws += wt;
          for (let k = 0; k < c; k++) cd[q * c + k] = cd[q * c + k]! + wt * data[p * c + k]!;
        }
      }
      if (ws > 0) for (let k = 0; k < c; k++) cd[q * c + k] = cd[q * c + k]! / ws;
      cw[q] = Math.min(1, ws);
    }
  }
  pushPullFill(cd, cw, W, H, c);
  for (let y = 0; y < h; y++) {
    // Fine pixel centre in coarse pixel coordinates.
    const fy = Math.min(H - 1, Math.max(0, (y + 0.5) / 2 - 0.5));
    const y0 = Math.floor(fy),
      y1 = Math.min(H - 1, y0 + 1),
      ty = fy - y0;
    for (let x = 0; x < w; x++) {
      const p = y * w + x,
        wt = weight[p]!;
      if (wt >= 1) continue;
      const fx = Math.min(W - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
      const x0 = Math.floor(fx),
        x1 = Math.min(W - 1, x0 + 1),
        tx = fx - x0;
      const a = (y0 * W + x0) * c,
        b = (y0 * W + x1) * c,
        d = (y1 * W + x0) * c,
        e = (y1 * W + x1) * c;
      for (let k = 0; k < c; k++) {
        const up = (1 - ty) * ((1 - tx) * cd[a + k]! + tx * cd[b + k]!) + ty * ((1 - tx) * cd[d + k]! + tx * cd[e + k]!);
        data[p * c + k] = wt * data[p * c + k]! + (1 - wt) * up;
      }
    }
  }
}

/** Mask shrunk by one pixel (4-neighbourhood); the mask itself when that empties it. */
export function erode(mask: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  let any = false;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      if (!mask[p]) continue;
      if (x > 0 && x < w - 1 && y > 0 && y < h - 1 && mask[p - 1] && mask[p + 1] && mask[p - w] && mask[p + w]) {
        out[p] = 1;
        any = true;
      }
    }
  }
  return any ? out : Uint8Array.from(mask);
}

// ---------------------------------------------------------------------------------------
// Resampling

interface Taps {
  start: Int32Array;
  count: Uint8Array;
  weights: Float32Array;
  maxTaps: number;
}

/** Tent-filter taps mapping n source samples onto m destination samples. */
function resampleTaps(n: number, m: number): Taps {
  const scale = n / m;
  const r = Math.max(1, scale);
  const maxTaps = Math.ceil(2 * r) + 2;
  const start = new Int32Array(m),
    count = new Uint8Array(m),
    weights = new Float32Array(m * maxTaps);
  for (let i = 0; i < m; i++) {
    const centre = (i + 0.5) * scale - 0.5;
    // Taps with a positive weight only.
    let j0 = Math.ceil(centre - r),
      j1 = Math.floor(centre + r);
    if (1 - Math.abs(j0 - centre) / r <= 0) j0++;
    if (j1 > j0 && 1 - Math.abs(j1 - centre) / r <= 0) j1--;
    // Clamp taps into the source, merging weights of clamped taps.
    const s = Math.max(0, Math.min(n - 1, j0));
    const e = Math.max(0, Math.min(n - 1, j1));
    start[i] = s;
    count[i] = e - s + 1;
    let sum = 0;
    for (let j = j0; j <= j1; j++) {
      const wt = Math.max(0, 1 - Math.abs(j - centre) / r);
      const jj = Math.max(0, Math.min(n - 1, j));
      weights[i * maxTaps + (jj - s)] = weights[i * maxTaps + (jj - s)]! + wt;
      sum += wt;
    }
    if (sum <= 0) {
      weights[i * maxTaps] = 1;
      sum = 1;
    }
    for (let k = 0; k < count[i]!; k++) weights[i * maxTaps + k] = weights[i * maxTaps + k]! / sum;
  }
  return { start, count, weights, maxTaps };
}

/**
 * A crop of an sRGB image resampled (tent filter) to tw x th, in linear light with
 * premultiplied weights: 5 interleaved channels per pixel, (r e, g e, b e, e, m), where
 * m is the mask coverage and e the coverage of `colourMask` (the pixels whose colours are
 * trusted). Pixels of the crop outside the image count as background.
 */
export function resampleCrop(
  image: DecodedImage,
  mask: Uint8Array,
  colourMask: Uint8Array,
  crop: { x: number; y: number; w: number; h: number },
  tw: number,
  th: number,
): Float32Array {
  const lut = SRGB_TO_LINEAR;
  const { width: W, height: H, data } = image;
  const C = 5;
  const tx = resampleTaps(crop.w, tw),
    ty = resampleTaps(crop.h, th);
  // Vertical taps first limit the source rows that matter; all crop rows are used anyway.
  const tmp = new Float32Array(tw * crop.h * C);
  for (let y = 0; y < crop.h; y++) {
    const sy = crop.y + y;
    if (sy < 0 || sy >= H) continue;
    const srow = sy * W,
      drow = y * tw;
    for (let x = 0; x < tw; x++) {
      const s = tx.start[x]!,
        n = tx.count[x]!,
        wo = x * tx.maxTaps;
      let r = 0,
        g = 0,
        b = 0,
        e = 0,
        m = 0;
      for (let k = 0; k < n; k++) {
        const sx = crop.x + s + k;
        if (sx < 0 || sx >= W) continue;
        const q = srow + sx;
        if (!mask[q]) continue;
        const wt = tx.weights[wo + k]!;
        m += wt;
        if (!colourMask[q]) continue;
        e += wt;
        r += wt * lut[data[q * 4]!]!;
        g += wt * lut[data[q * 4 + 1]!]!;
        b += wt * lut[data[q * 4 + 2]!]!;
      }
      const d = (drow + x) * C;
      tmp[d] = r;
      tmp[d + 1] = g;
      tmp[d + 2] = b;
      tmp[d + 3] = e;
      tmp[d + 4] = m;
    }
  }
  const out = new Float32Array(tw * th * C);
  const rowLen = tw * C;
  for (let y = 0; y < th; y++) {
    const s = ty.start[y]!,
      n = ty.count[y]!,
      wo = y * ty.maxTaps;
    const d = y * rowLen;
    for (let k = 0; k < n; k++) {
      const wt = ty.weights[wo + k]!,
        q = (s + k) * rowLen;
      for (let i = 0; i < rowLen; i++) out[d + i] = out[d + i]! + wt * tmp[q + i]!;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// De-shading

/** Clamp of the illumination ratio before the strength exponent. */
const DESHADE_MIN_RATIO = 0.2,
  DESHADE_MAX_RATIO = 5;

/**
 * Removes low-frequency illumination from linear RGB (3 interleaved channels) inside the
 * mask: the illumination is the luminance averaged over the mask with a tent of radius
 * `radius` (2 box passes, normalised by the blurred mask so the outline does not darken
 * it), estimated on a grid of at most 256 cells along the longest side and interpolated
 * bilinearly; every subject pixel is divided by (illumination / mean illumination)^strength,
 * the ratio clamped to [0.2, 5]. Strength 0 changes nothing. In place.
 */
export function deshadeLinear(rgb: Float32Array, mask: Uint8Array, w: number, h: number, strength: number, radius: number): void {
  if (strength <= 0) return;
  const lum = new Float32Array(w * h);
  let cnt = 0;
  for (let p = 0; p < w * h; p++) {
    if (!mask[p]) continue;
    lum[p] = 0.2126 * rgb[p * 3]! + 0.7152 * rgb[p * 3 + 1]! + 0.0722 * rgb[p * 3 + 2]!;
    cnt++;
  }
  if (!cnt) return;
  const illum = smoothFields([lum], mask, w, h, radius, 2)[0]!;
  let isum = 0;
  for (let p = 0; p < w * h; p++) if (mask[p]) isum += illum[p]!;
  const mean = isum / cnt;
  if (mean <= 1e-6) return;
  // gain = ratio^-s, tabulated over the clamped ratio range (step 0.0003).
  const s = Math.min(1, strength),
    inv = 1 / mean;
  const steps = 16384,
    span = DESHADE_MAX_RATIO - DESHADE_MIN_RATIO;
  const gain = new Float32Array(steps + 1);
  for (let i = 0; i <= steps; i++) gain[i] = (DESHADE_MIN_RATIO + (i / steps) * span) ** -s;
  const scale = steps / span;
  for (let p = 0; p < w * h; p++) {
    if (!mask[p]) continue;
    const ratio = Math.min(DESHADE_MAX_RATIO, Math.max(DESHADE_MIN_RATIO, illum[p]! * inv));
    const g = gain[((ratio - DESHADE_MIN_RATIO) * scale + 0.5) | 0]!;
    rgb[p * 3] = Math.min(1, rgb[p * 3]! * g);
    rgb[p * 3 + 1] = Math.min(1, rgb[p * 3 + 1]! * g);
    rgb[p * 3 + 2] = Math.min(1, rgb[p * 3 + 2]! * g);
  }
}

/** De-shading radius for a subject whose mask box is bw x bh pixels. */
export function deshadeRadius(bw: number, bh: number): number {
  return Math.max(3, Math.round(0.06 * Math.max(bw, bh)));
}

/** deshadeLinear on a whole decoded image (background pixels unchanged). */
export function deshadeImage(image: DecodedImage, mask: Uint8Array, strength: number, radius?: number): DecodedImage {
  const { width: w, height: h } = image;
  const n = w * h;
  const rgb = new Float32Array(n * 3);
  for (let p = 0; p < n; p++) for (let k = 0; k < 3; k++) rgb[p * 3 + k] = SRGB_TO_LINEAR[image.data[p * 4 + k]!]!;
  let x0 = w,
    x1 = -1,
    y0 = h,
    y1 = -1;
  for (let p = 0; p < n; p++) {
    if (!mask[p]) continue;
    const x = p % w,
      y = (p - x) / w;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  deshadeLinear(rgb, mask, w, h, strength, radius ?? deshadeRadius(x1 - x0 + 1, y1 - y0 + 1));
  const data = Uint8Array.from(image.data);
  for (let p = 0; p < n; p++) {
    if (!mask[p]) continue;
    for (let k = 0; k < 3; k++) data[p * 4 + k] = linearToSrgb(rgb[p * 3 + k]!);
  }
  return { ...image, data };
}
