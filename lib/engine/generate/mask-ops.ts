/**
 * Binary-mask helpers on row-major Uint8Array grids (1 = set): connected components,
 * speck/hole clean-up, Euclidean distance transform, bounding box, area resampling.
 * Everything works on typed arrays; no per-pixel allocation.
 */

export interface Components {
  /** Component id per pixel, -1 where the pixel does not have the labelled value. */
  labels: Int32Array;
  /** Pixel count per component id. */
  sizes: number[];
  /** Whether the component touches the grid border. */
  touchesBorder: boolean[];
}

/** 4-connected components of the pixels equal to `value`. */
export function labelComponents(mask: Uint8Array, w: number, h: number, value = 1): Components {
  const labels = new Int32Array(w * h).fill(-1);
  const stack = new Int32Array(w * h);
  const sizes: number[] = [];
  const touchesBorder: boolean[] = [];
  for (let start = 0; start < w * h; start++) {
    if (labels[start] !== -1 || mask[start] !== value) continue;
    const id = sizes.length;
    let size = 0;
    let border = false;
    let top = 0;
    stack[top++] = start;
    labels[start] = id;
    while (top > 0) {
      const p = stack[--top]!;
      size++;
      const x = p % w;
      const y = (p - x) / w;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) border = true;
      if (x > 0 && labels[p - 1] === -1 && mask[p - 1] === value) {
        labels[p - 1] = id;
        stack[top++] = p - 1;
      }
      if (x < w - 1 && labels[p + 1] === -1 && mask[p + 1] === value) {
        labels[p + 1] = id;
        stack[top++] = p + 1;
      }
      if (y > 0 && labels[p - w] === -1 && mask[p - w] === value) {
        labels[p - w] = id;
        stack[top++] = p - w;
      }
      if (y < h - 1 && labels[p + w] === -1 && mask[p + w] === value) {
        labels[p + w] = id;
        stack[top++] = p + w;
      }
    }
    sizes.push(size);
    touchesBorder.push(border);
  }
  return { labels, sizes, touchesBorder };
}

/**
 * Removes foreground components smaller than `minArea` pixels (the largest one is always
 * kept) and fills enclosed background holes smaller than `maxHole` pixels. In place.
 */
export function cleanMask(mask: Uint8Array, w: number, h: number, minArea: number, maxHole: number): Uint8Array {
  const fg = labelComponents(mask, w, h, 1);
  let largest = -1;
  for (let i = 0; i < fg.sizes.length; i++) if (largest < 0 || fg.sizes[i]! > fg.sizes[largest]!) largest = i;
  for (let p = 0; p < w * h; p++) {
    const id = fg.labels[p]!;
    if (id >= 0 && id !== largest && fg.sizes[id]! < minArea) mask[p] = 0;
  }
  if (maxHole > 0) {
    const bg = labelComponents(mask, w, h, 0);
    for (let p = 0; p < w * h; p++) {
      const id = bg.labels[p]!;
      if (id >= 0 && !bg.touchesBorder[id] && bg.sizes[id]! < maxHole) mask[p] = 1;
    }
  }
  return mask;
}

export function countSet(mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i]) n++;
  return n;
}

/** Inclusive bounding box of the set pixels, or null when the mask is empty. */
export function maskBounds(mask: Uint8Array, w: number, h: number): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = w,
    y0 = h,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (!mask[row + x]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

export const INF = 1e20;

/** 1-D squared distance transform of f (Felzenszwalb & Huttenlocher), into d. */
function edt1d(f: Float64Array, n: number, d: Float64Array, v: Int32Array, z: Float64Array): void {
  let k = 0;
  v[0] = 0;
  z[0] = -INF;
  z[1] = INF;
  for (let q = 1; q < n; q++) {
    let s = 0;
    for (;;) {
      const vk = v[k]!;
      s = (f[q]! + q * q - (f[vk]! + vk * vk)) / (2 * q - 2 * vk);
      if (s <= z[k]! && k > 0) k--;
      else break;
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = INF;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1]! < q) k++;
    const vk = v[k]!;
    d[q] = (q - vk) * (q - vk) + f[vk]!;
  }
}

/** Euclidean distance from every pixel to the nearest pixel with feature[p] = 1. */
export function distanceTransform(feature: Uint8Array, w: number, h: number): Float32Array {
  const cost = new Float64Array(w * h);
  for (let p = 0; p < cost.length; p++) cost[p] = feature[p] ? 0 : INF;
  const d2 = powerTransform(cost, w, h);
  const out = new Float32Array(w * h);
  for (let p = 0; p < out.length; p++) out[p] = Math.sqrt(d2[p]!);
  return out;
}

/**
 * Resamples the mask window starting at pixel (x0, y0), `cellPx` pixels per cell, into a
 * gw x gh grid with `pad` empty cells on every side. A cell is set when at least half
 * of its (super-sampled) footprint is set.
 */
export function resampleMask(
  mask: Uint8Array,
  w: number,
  h: number,
  x0: number,
  y0: number,
  cellPx: number,
  gw: number,
  gh: number,
  pad: number,
): Uint8Array {
  const GW = gw + 2 * pad;
  const out = new Uint8Array(GW * (gh + 2 * pad));
  const k = Math.max(1, Math.min(4, Math.ceil(cellPx)));
  for (let cy = 0; cy < gh; cy++) {
    for (let cx = 0; cx < gw; cx++) {
      let hits = 0;
      for (let sy = 0; sy < k; sy++) {
        const py = Math.floor(y0 + (cy + (sy + 0.5) / k) * cellPx);
        if (py < 0 || py >= h) continue;
        for (let sx = 0; sx < k; sx++) {
          const px = Math.floor(x0 + (cx + (sx + 0.5) / k) * cellPx);
          if (px >= 0 && px < w && mask[py * w + px]) hits++;
        }
      }
      if (hits * 2 >= k * k) out[(cy + pad) * GW + cx + pad] = 1;
    }
  }
  return out;
}

/**
 * Power transform: for every pixel p, min over pixels q with finite cost of
 * |p - q|^2 + cost[q] (Felzenszwalb's lower envelope of parabolas, separable, O(n)).
 * Pixels whose cost is INF take no part.
 */
export function powerTransform(cost: Float64Array, w: number, h: number): Float64Array {
  const n = Math.max(w, h);
  const f = new Float64Array(n);
  const d = new Float64Array(n);
  const v = new Int32Array(n);
  const z = new Float64Array(n + 1);
  const tmp = new Float64Array(w * h);
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) f[y] = cost[y * w + x]!;
    edt1d(f, h, d, v, z);
    for (let y = 0; y < h; y++) tmp[y * w + x] = Math.min(d[y]!, INF);
  }
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) f[x] = tmp[y * w + x]!;
    edt1d(f, w, d, v, z);
    for (let x = 0; x < w; x++) out[y * w + x] = Math.min(d[x]!, INF);
  }
  return out;
}
