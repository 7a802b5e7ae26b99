import { describe, expect, it } from "vitest";
import { boxMean } from "./box-filter";
import { fastGuidedFilter, guidedFilter } from "./depth-filter";
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

/** Transposes a row-major w x h grid (the result is h x w). */
const transpose = (img: Float32Array, w: number, h: number) =>
  Float32Array.from({ length: w * h }, (_, p) => img[(p % h) * w + Math.floor(p / h)]!);

/** Plain definition of the self-guided filter, window means by brute force (clipped at the border). */
function referenceGuided(src: ArrayLike<number>, w: number, h: number, r: number, eps: number): Float64Array {
  const boxBrute = (f: (x: number, y: number) => number) =>
    Float64Array.from({ length: w * h }, (_, p) => {
      const x = p % w,
        y = Math.floor(p / w);
      let s = 0,
        k = 0;
      for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++)
        for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++, k++) s += f(xx, yy);
      return s / k;
    });
  const I = (x: number, y: number) => src[y * w + x]!;
  const mean = boxBrute(I),
    meanSq = boxBrute((x, y) => I(x, y) ** 2);
  const a = mean.map((m, p) => {
    const v = meanSq[p]! - m * m;
    return v / (v + eps);
  });
  const b = mean.map((m, p) => (1 - a[p]!) * m);
  const A = boxBrute((x, y) => a[y * w + x]!),
    B = boxBrute((x, y) => b[y * w + x]!);
  return Float64Array.from({ length: w * h }, (_, p) => A[p]! * src[p]! + B[p]!);
}

/**
 * The fast filter by its definition: 2 x 2 block means (the last row / column repeated on odd
 * sizes), the self-guided coefficients at half resolution with radius max(1, round(r / 2)),
 * sampled bilinearly at (x - 0.5) / 2, (y - 0.5) / 2 clamped to the low-res grid, applied to
 * the full-resolution input.
 */
function referenceFast(src: Float32Array, w: number, h: number, r: number, eps: number): Float64Array {
  const lw = Math.ceil(w / 2),
    lh = Math.ceil(h / 2);
  const at = (x: number, y: number) => src[Math.min(h - 1, y) * w + Math.min(w - 1, x)]!;
  const low = Float64Array.from({ length: lw * lh }, (_, p) => {
    const X = 2 * (p % lw),
      Y = 2 * Math.floor(p / lw);
    return (at(X, Y) + at(X + 1, Y) + at(X, Y + 1) + at(X + 1, Y + 1)) / 4;
  });
  const lr = Math.max(1, Math.round(r / 2));
  const win = (f: (x: number, y: number) => number) =>
    Float64Array.from({ length: lw * lh }, (_, p) => {
      const x = p % lw,
        y = Math.floor(p / lw);
      let s = 0,
        k = 0;
      for (let yy = Math.max(0, y - lr); yy <= Math.min(lh - 1, y + lr); yy++)
        for (let xx = Math.max(0, x - lr); xx <= Math.min(lw - 1, x + lr); xx++, k++) s += f(xx, yy);
      return s / k;
    });
  const mean = win((x, y) => low[y * lw + x]!),
    meanSq = win((x, y) => low[y * lw + x]! ** 2);
  const a = mean.map((m, p) => {
    const v = meanSq[p]! - m * m;
    return v / (v + eps);
  });
  const A = win((x, y) => a[y * lw + x]!),
    B = win((x, y) => (1 - a[y * lw + x]!) * mean[y * lw + x]!);
  const sample = (G: Float64Array, x: number, y: number) => {
    const fx = Math.min(lw - 1, Math.max(0, (x - 0.5) / 2)),
      fy = Math.min(lh - 1, Math.max(0, (y - 0.5) / 2));
    const x0 = Math.floor(fx),
      y0 = Math.floor(fy),
      x1 = Math.min(lw - 1, x0 + 1),
      y1 = Math.min(lh - 1, y0 + 1),
      tx = fx - x0,
      ty = fy - y0;
    const g = (xx: number, yy: number) => G[yy * lw + xx]!;
    return (1 - ty) * ((1 - tx) * g(x0, y0) + tx * g(x1, y0)) + ty * ((1 - tx) * g(x0, y1) + tx * g(x1, y1));
  };
  return Float64Array.from({ length: w * h }, (_, p) => {
    const x = p % w,
      y = Math.floor(p / w);
    return sample(A, x, y) * src[p]! + sample(B, x, y);
  });
}

const expectClose = (got: Float32Array, want: ArrayLike<number>, digits = 6) => {
  expect(got.length).toBe(want.length);
  for (let p = 0; p < want.length; p++) expect(got[p]).toBeCloseTo(want[p]!, digits);
};

describe("guidedFilter on grids worked by hand", () => {
  it("a 3 x 1 step [0, 0, 1], r = 1, eps = 1/4", () => {
    // Window means (clipped): mean = mean of squares = [0, 1/3, 1/2]; variance
    // [0, 1/3 - 1/9 = 2/9, 1/2 - 1/4 = 1/4]; a = v / (v + 1/4) = [0, 8/17, 1/2];
    // b = (1 - a) mean = [0, 3/17, 1/4]. Means of a: [4/17, 11/34, 33/68]; of b:
    // [3/34, 29/204, 29/136]. out = meanA * src + meanB = [3/34, 29/204, 33/68 + 29/136 = 95/136].
    const want = [3 / 34, 29 / 204, 95 / 136];
    expectClose(guidedFilter(Float32Array.from([0, 0, 1]), 3, 1, 1, 0.25), want);
    // The filter treats rows and columns alike: the 1 x 3 column gives the same figures.
    expectClose(guidedFilter(Float32Array.from([0, 0, 1]), 1, 3, 1, 0.25), want);
  });

  it("eps sets how much of the step survives; a flat image is returned unchanged", () => {
    // eps = 0: a = 1 wherever the window varies, b = 0: the input itself. (The left pixel's
    // window [0, 0] is flat: v = 0, a = 0/0 -> NaN, so use a step without a flat window.)
    const step = Float32Array.from([0.2, 0.4, 0.8]);
    expectClose(guidedFilter(step, 3, 1, 1, 1e-12), [0.2, 0.4, 0.8], 5);
    // eps huge: a = 0, b = mean: the window mean of the window means,
    // means [0.3, 7/15, 0.6] -> [(0.3 + 7/15) / 2, (0.3 + 7/15 + 0.6) / 3, (7/15 + 0.6) / 2].
    expectClose(guidedFilter(step, 3, 1, 1, 1e9), [(0.3 + 7 / 15) / 2, (0.3 + 7 / 15 + 0.6) / 3, (7 / 15 + 0.6) / 2], 5);
    // No variance anywhere: a = 0 and b = the value.
    expectClose(guidedFilter(new Float32Array(12).fill(0.625), 4, 3, 2, 0.01), new Array(12).fill(0.625));
  });

  it("matches the filter's definition on a 2-D 5 x 4 image", () => {
    const rnd = mulberry32(11);
    const src = Float32Array.from({ length: 20 }, () => rnd());
    expectClose(guidedFilter(src, 5, 4, 1, 0.02), referenceGuided(src, 5, 4, 1, 0.02), 5);
    expectClose(guidedFilter(src, 5, 4, 2, 0.005), referenceGuided(src, 5, 4, 2, 0.005), 5);
  });
});

describe("fastGuidedFilter on grids worked by hand", () => {
  // [0, 0, 0, 0, 1, 1] -> 2 x 1 block means low = [0, 0, 1], the 3 x 1 step above: with
  // lr = max(1, round(r / 2)) = 1 and eps = 1/4 its coefficients are A = [4/17, 11/34, 33/68],
  // B = [3/34, 29/204, 29/136]. Pixel x samples them at (x - 0.5) / 2 clamped to [0, 2]:
  // 0, 0.25, 0.75, 1.25, 1.75, 2; the input is 0 but for x = 4, 5 (1). So
  // x0: B0 = 3/34; x1: 3/4 B0 + 1/4 B1 = 83/816; x2: 1/4 B0 + 3/4 B1 = 35/272;
  // x3: 3/4 B1 + 1/4 B2 = 87/544; x4: (1/4 A1 + 3/4 A2) + (1/4 B1 + 3/4 B2) = 121/272 + 319/1632
  // = 1045/1632; x5: A2 + B2 = 95/136.
  const stepOut = [3 / 34, 83 / 816, 35 / 272, 87 / 544, 1045 / 1632, 95 / 136];

  it("a 6 x 1 step, r = 1 and 2 (both halve to 1)", () => {
    const src = Float32Array.from([0, 0, 0, 0, 1, 1]);
    expectClose(fastGuidedFilter(src, 6, 1, 1, 0.25), stepOut);
    expectClose(fastGuidedFilter(src, 6, 1, 2, 0.25), stepOut);
    // Two equal rows: the same row twice (the 2 x 2 blocks average equal values).
    expectClose(fastGuidedFilter(Float32Array.from([...src, ...src]), 6, 2, 1, 0.25), [...stepOut, ...stepOut]);
    // Four equal rows: two low-res rows, interpolated between equal values.
    expectClose(fastGuidedFilter(Float32Array.from([...src, ...src, ...src, ...src]), 6, 4, 1, 0.25), [
      ...stepOut,
      ...stepOut,
      ...stepOut,
      ...stepOut,
    ]);
  });

  it("odd sizes repeat the last pixel: 5 x 1 [0, 0, 0, 0, 1] has the same low-res step", () => {
    // Block 2 covers pixel 4 only: (1 + 1 + 1 + 1) / 4 = 1, so low = [0, 0, 1] again.
    expectClose(fastGuidedFilter(Float32Array.from([0, 0, 0, 0, 1]), 5, 1, 1, 0.25), stepOut.slice(0, 5));
  });

  it("columns are filtered like rows (1 x 6 and 1 x 5)", () => {
    expectClose(fastGuidedFilter(Float32Array.from([0, 0, 0, 0, 1, 1]), 1, 6, 1, 0.25), stepOut);
    expectClose(fastGuidedFilter(Float32Array.from([0, 0, 0, 0, 1]), 1, 5, 1, 0.25), stepOut.slice(0, 5));
  });

  it("r = 4 halves to lr = 2, a window over the whole low-res step", () => {
    // Every window holds [0, 0, 1]: mean 1/3, variance 2/9, a = 8/17, b = 3/17 everywhere,
    // so out = 8/17 src + 3/17.
    expectClose(
      fastGuidedFilter(Float32Array.from([0, 0, 0, 0, 1, 1]), 6, 1, 4, 0.25),
      [3, 3, 3, 3, 11, 11].map((v) => v / 17),
    );
    // r = 0 still uses a low-res radius of 1.
    expectClose(fastGuidedFilter(Float32Array.from([0, 0, 0, 0, 1, 1]), 6, 1, 0, 0.25), stepOut);
  });

  it("a 2 x 2 image is one low-res pixel: no variance, every pixel gets the block mean", () => {
    expectClose(fastGuidedFilter(Float32Array.from([0.1, 0.2, 0.3, 0.6]), 2, 2, 1, 0.01), [0.3, 0.3, 0.3, 0.3]);
  });

  it("matches its definition on 2-D images of even and odd sizes, and transposes with the input", () => {
    const rnd = mulberry32(5);
    for (const [w, h, r, eps] of [
      [7, 5, 2, 0.01],
      [8, 6, 4, 0.003],
      [5, 9, 1, 0.05],
    ] as const) {
      const src = Float32Array.from({ length: w * h }, () => rnd());
      const out = fastGuidedFilter(src, w, h, r, eps);
      expectClose(out, referenceFast(src, w, h, r, eps), 5);
      expectClose(transpose(fastGuidedFilter(transpose(src, w, h), h, w, r, eps), h, w), out, 5);
    }
  });
});
