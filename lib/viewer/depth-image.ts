/**
 * Turns a floating-point depth map (as three's EXRLoader returns it) into RGBA8 grey
 * pixels for a 2D canvas. Depth maps from the service are 0..1 (1 = near) and are shown
 * on that scale, like their PNG/BMP versions; other ranges are stretched to fit.
 */

export interface FloatImage {
  width: number;
  height: number;
  /** Row-major samples, `channels` per pixel; the first channel is the depth. */
  data: ArrayLike<number>;
  channels: number;
}

/** The value range shown black to white: 0..1 when every finite sample is in it, else min..max. */
export function depthRange({ data, channels }: Pick<FloatImage, "data" | "channels">): { lo: number; hi: number } {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < data.length; i += channels) {
    const v = data[i] ?? NaN; // in range: i < data.length
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return { lo: 0, hi: 1 }; // no finite sample
  if (lo >= 0 && hi <= 1) return { lo: 0, hi: 1 };
  return hi > lo ? { lo, hi } : { lo, hi: lo + 1 };
}

/**
 * Grey RGBA8 pixels, top row first. `bottomUp` says the samples' first row is the image's
 * bottom (three's EXRLoader flips rows for WebGL), so rows are flipped back.
 */
export function depthToRgba(img: FloatImage, bottomUp: boolean): Uint8ClampedArray<ArrayBuffer> {
  const { width, height, data, channels } = img;
  if (data.length < width * height * channels) throw new Error(`depth data too short for ${width}x${height}`);
  const { lo, hi } = depthRange(img);
  const scale = 255 / (hi - lo);
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const srcRow = bottomUp ? height - 1 - y : y;
    for (let x = 0; x < width; x++) {
      const v = data[(srcRow * width + x) * channels] ?? NaN; // in range: the length is checked above
      const g = Number.isFinite(v) ? Math.round((v - lo) * scale) : 0;
      const o = (y * width + x) * 4;
      out[o] = out[o + 1] = out[o + 2] = g;
      out[o + 3] = 255;
    }
  }
  return out;
}
