/**
 * O(1)-per-pixel box filters over single-channel w x h grids (running sums along rows,
 * then along columns a whole row at a time), shared by the depth filter, inflation and
 * the texture fields. `tmp` is scratch of the grid's size; `out` may be `src`.
 */

/**
 * Box mean of radius r (a (2r+1)^2 window clipped to the image, divided by the number of
 * pixels actually inside), written to `out`. `tmp` is scratch of the same size.
 */
export function boxMean(src: Float32Array, w: number, h: number, r: number, out: Float32Array, tmp: Float32Array): void {
  // 1 / (pixels in the clipped window) per column and per row.
  const invX = new Float32Array(w),
    invY = new Float32Array(h);
  for (let x = 0; x < w; x++) invX[x] = 1 / (Math.min(w - 1, x + r) - Math.max(0, x - r) + 1);
  for (let y = 0; y < h; y++) invY[y] = 1 / (Math.min(h - 1, y + r) - Math.max(0, y - r) + 1);
  // Horizontal running sums: [0, a) the window grows, [a, b) it slides, [b, w) it shrinks.
  const a = Math.min(w, r + 1),
    b = Math.max(a, w - r);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let s = 0;
    for (let x = 0; x < Math.min(r, w); x++) s += src[row + x]!;
    let x = 0;
    for (; x < a; x++) {
      if (x + r < w) s += src[row + x + r]!;
      tmp[row + x] = s * invX[x]!;
    }
    for (; x < b; x++) {
      s += src[row + x + r]! - src[row + x - r - 1]!;
      tmp[row + x] = s * invX[x]!;
    }
    for (; x < w; x++) {
      s -= src[row + x - r - 1]!;
      tmp[row + x] = s * invX[x]!;
    }
  }
  // Vertical running sums, a whole row at a time (cache friendly).
  const acc = new Float64Array(w);
  for (let y = 0; y < Math.min(r, h); y++) for (let x = 0, o = y * w; x < w; x++) acc[x]! += tmp[o + x]!;
  for (let y = 0; y < h; y++) {
    if (y + r < h) for (let x = 0, o = (y + r) * w; x < w; x++) acc[x]! += tmp[o + x]!;
    if (y - r - 1 >= 0) for (let x = 0, o = (y - r - 1) * w; x < w; x++) acc[x]! -= tmp[o + x]!;
    const inv = invY[y]!,
      row = y * w;
    for (let x = 0; x < w; x++) out[row + x] = acc[x]! * inv;
  }
}

/**
 * Box blur of a single-channel w x h grid, radius r (window 2r + 1, zero outside the
 * grid, not normalised at the border: divide by a blurred weight grid for a masked
 * average). `tmp` is scratch of the same size. O(w h) whatever r.
 */
export function boxBlur(src: Float32Array, w: number, h: number, r: number, out: Float32Array, tmp: Float32Array): void {
  // Horizontal, running sum per row.
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let acc = 0;
    for (let x = 0; x < Math.min(r, w); x++) acc += src[row + x]!;
    for (let x = 0; x < w; x++) {
      if (x + r < w) acc += src[row + x + r]!;
      tmp[row + x] = acc;
      if (x - r >= 0) acc -= src[row + x - r]!;
    }
  }
  // Vertical, a running sum per column, walked row by row (cache friendly).
  const col = new Float64Array(w);
  for (let y = 0; y < Math.min(r, h); y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) col[x] = col[x]! + tmp[row + x]!;
  }
  for (let y = 0; y < h; y++) {
    const add = y + r < h ? (y + r) * w : -1;
    const sub = y - r >= 0 ? (y - r) * w : -1;
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let a = col[x]!;
      if (add >= 0) a += tmp[add + x]!;
      out[row + x] = a;
      if (sub >= 0) a -= tmp[sub + x]!;
      col[x] = a;
    }
  }
}
