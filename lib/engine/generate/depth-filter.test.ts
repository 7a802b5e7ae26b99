import { describe, expect, it } from "vitest";
import { boxMean } from "./box-filter";
import { guidedFilter } from "./depth-filter";
import { SMOOTHING_EPS, smoothLuminance, smoothingRadius } from "./depth";
import { mulberry32 } from "./random";
import { synthImage } from "./generate.test-helpers";

const normal = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());

/** Column means of a row-major image (averages the noise out of a vertical edge's profile). */
const profile = (img: Float32Array, w: number, h: number) =>
  Float64Array.from({ length: w }, (_, x) => {
    let s = 0;
    for (let y = 0; y < h; y++) s += img[y * w + x]!;
    return s / h;
  });

/** Variance of the pixels in columns [x0, x1). */
function variance(img: Float32Array, w: number, h: number, x0: number, x1: number): number {
  let s = 0,
    s2 = 0,
    n = 0;
  for (let y = 0; y < h; y++)
    for (let x = x0; x < x1; x++) {
      const v = img[y * w + x]!;
      s += v;
      s2 += v * v;
      n++;
    }
  return s2 / n - (s / n) ** 2;
}

/** 10%..90% rise distance (pixels, linearly interpolated) of a rising profile. */
function riseWidth(p: Float64Array, lo: number, hi: number): number {
  const cross = (level: number) => {
    for (let x = 1; x < p.length; x++) {
      if (p[x - 1]! < level && p[x]! >= level) return x - 1 + (level - p[x - 1]!) / (p[x]! - p[x - 1]!);
    }
    return NaN;
  };
  return cross(lo + 0.9 * (hi - lo)) - cross(lo + 0.1 * (hi - lo));
}

function gaussianBlur(src: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const r = Math.ceil(3 * sigma);
  const k = Float64Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const ks = k.reduce((a, b) => a + b, 0);
  const tmp = new Float32Array(w * h),
    out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++) s += k[i + r]! * src[y * w + Math.min(w - 1, Math.max(0, x + i))]!;
      tmp[y * w + x] = s / ks;
    }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++) s += k[i + r]! * tmp[Math.min(h - 1, Math.max(0, y + i)) * w + x]!;
      out[y * w + x] = s / ks;
    }
  return out;
}

describe("boxMean", () => {
  it("equals the brute-force clipped window mean", () => {
    for (const [w, h, r] of [
      [7, 5, 2],
      [13, 9, 5],
      [3, 20, 4],
      [1, 1, 3],
      [30, 17, 0],
      [64, 3, 1],
    ] as const) {
      const src = Float32Array.from({ length: w * h }, (_, i) => Math.sin(i * 1.7) + 1);
      const out = new Float32Array(w * h);
      boxMean(src, w, h, r, out, new Float32Array(w * h));
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          let s = 0,
            k = 0;
          for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++) {
            for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) {
              s += src[yy * w + xx]!;
              k++;
            }
          }
          expect(Math.abs(out[y * w + x]! - s / k)).toBeLessThan(1e-5);
        }
    }
  });
});

describe("edge-preserving smoothing", () => {
  // A vertical step 0.3 -> 0.7 at x = W/2 with N(0, 0.03) noise, at the pro map width (the
  // widest filter radius used).
  const W = 2048,
    H = 128,
    step = W / 2;
  const r = mulberry32(7);
  const lumOf = (x: number) => (x < step ? 0.3 : 0.7);
  const img = synthImage(W, H, [0, 0, 0], (x) => {
    const v = Math.round(Math.min(1, Math.max(0, lumOf(x) + 0.03 * normal(r))) * 255);
    return [v, v, v];
  });
  const raw = Float32Array.from({ length: W * H }, (_, p) => img.data[p * 4]! / 255);
  const flatL: [number, number] = [100, step - 40],
    flatR: [number, number] = [step + 40, W - 100];

  it("removes most of the noise in flat areas but keeps the step within 2 px (10-90%)", () => {
    const out = smoothLuminance(img);
    const before = variance(raw, W, H, ...flatL) + variance(raw, W, H, ...flatR);
    const after = variance(out, W, H, ...flatL) + variance(out, W, H, ...flatR);
    expect(before).toBeGreaterThan(2 * 0.025 ** 2);
    expect(after / before).toBeLessThan(0.1);
    const p = profile(out, W, H);
    const width = riseWidth(p, 0.3, 0.7);
    expect(width).toBeGreaterThan(0);
    expect(width).toBeLessThanOrEqual(2);
    // The levels on both sides are kept: no halo beside the edge (column means within 3%
    // of the step from 3 px on, 5% at 2 px; near the edge the noise passes through).
    for (let x = step - 30; x <= step + 30; x++) {
      const d = Math.abs(x + 0.5 - step); // the edge lies between pixels step - 1 and step
      if (d < 1) continue; // the two transition pixels
      expect(Math.abs(p[x]! - (x < step ? 0.3 : 0.7))).toBeLessThan(d > 2 ? 0.012 : 0.02);
    }
  });

  it("a Gaussian blur with the same noise reduction would smear the step (the test above is discriminating)", () => {
    const out = smoothLuminance(img);
    const target = (variance(out, W, H, ...flatL) + variance(out, W, H, ...flatR)) / 2;
    let sigma = 0.5;
    let blurred = gaussianBlur(raw, W, H, sigma);
    while ((variance(blurred, W, H, ...flatL) + variance(blurred, W, H, ...flatR)) / 2 > target && sigma < 20) {
      sigma *= 1.25;
      blurred = gaussianBlur(raw, W, H, sigma);
    }
    expect(riseWidth(profile(blurred, W, H), 0.3, 0.7)).toBeGreaterThan(4);
    expect(riseWidth(profile(out, W, H), 0.3, 0.7)).toBeLessThanOrEqual(2);
  });

  it("guidedFilter: variance far below eps is averaged, far above passes through", () => {
    const w = 64,
      h = 64;
    const rr = mulberry32(3);
    const quiet = Float32Array.from({ length: w * h }, () => 0.5 + 0.01 * normal(rr));
    const loud = Float32Array.from({ length: w * h }, (_, p) => (((p % w) >> 3) % 2 ? 0.9 : 0.1)); // 8-px stripes
    const q = guidedFilter(quiet, w, h, 3, SMOOTHING_EPS);
    expect(variance(q, w, h, 0, w)).toBeLessThan(0.1 * variance(quiet, w, h, 0, w));
    const l = guidedFilter(loud, w, h, 3, SMOOTHING_EPS);
    let maxDiff = 0;
    for (let p = 0; p < w * h; p++) maxDiff = Math.max(maxDiff, Math.abs(l[p]! - loud[p]!));
    expect(maxDiff).toBeLessThan(0.05);
    expect(smoothingRadius(1024)).toBe(3);
    expect(smoothingRadius(2048)).toBe(5);
  });
});
