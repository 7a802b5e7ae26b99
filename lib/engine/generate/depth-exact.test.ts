// Exact values of depth.ts's image stages (median3, smoothLuminance, depthFromImage) on
// hand-built 2x2..100x1 images; every figure is derived in a comment. The relief mesh
// (reliefScene) is pinned in depth-relief-exact.test.ts.
import { describe, expect, it } from "vitest";
import {
  BASE_TRIANGLES,
  PRO_TRIANGLES,
  SMOOTHING_EPS,
  depthFromImage,
  depthSizeFor,
  median3,
  reliefTolerance,
  smoothLuminance,
  smoothingRadius,
} from "./depth";
import { fastGuidedFilter, guidedFilter } from "./depth-filter";
import type { DecodedImage } from "./image-input";

type RGBA = [number, number, number, number];

/** A w x h RGBA image painted per pixel (alpha flag as given). */
function image(w: number, h: number, paint: (x: number, y: number) => RGBA, hasAlpha = false): DecodedImage {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set(paint(x, y), (y * w + x) * 4);
  return { width: w, height: h, data, hasAlpha };
}

const grey = (v: number): RGBA => [v, v, v, 255];

describe("constants", () => {
  it("depth map size, smoothing radius and eps, triangle budgets, mesh tolerance", () => {
    expect([depthSizeFor("pro"), depthSizeFor("base")]).toEqual([2048, 1024]);
    // max(2, round(side / 400)): 999 / 400 = 2.4975 -> 2; 1000 / 400 = 2.5 -> 3; 2048 -> 5.12 -> 5.
    expect([0, 400, 999, 1000, 2048, 4000].map(smoothingRadius)).toEqual([2, 2, 2, 3, 5, 10]);
    expect(SMOOTHING_EPS).toBe(0.0025);
    expect([PRO_TRIANGLES, BASE_TRIANGLES]).toEqual([200_000, 100_000]);
    // clamp(0.004 * relief, 0.002, 0.02): 0.1 -> 0.0004 -> 0.002; 0.5 -> exactly 0.002; 1 -> 0.004;
    // 2.5 -> 0.01; 5 -> exactly 0.02; 10 -> 0.04 -> 0.02.
    const tol = [0.1, 0.5, 1, 2.5, 5, 10].map(reliefTolerance);
    [0.002, 0.002, 0.004, 0.01, 0.02, 0.02].forEach((v, i) => expect(tol[i]).toBeCloseTo(v, 12));
  });
});

describe("median3", () => {
  it("clamps the borders: 2x2, 3x1 and 1x3 worked by hand", () => {
    // 2x2 [1 2; 3 4]: pixel (0,0) sees rows 0,0,1 and columns 0,0,1 = {1x4, 2x2, 3x2, 4}: 5th = 2;
    // (1,0) = {1x2, 2x4, 3, 4x2}: 2; (0,1) = {1x2, 2, 3x4, 4x2}: 3; (1,1) = {1, 2x2, 3x2, 4x4}: 3.
    expect(Array.from(median3(Float32Array.from([1, 2, 3, 4]), 2, 2))).toEqual([2, 2, 3, 3]);
    // A row [3 1 2]: x=0 sees {3,3,1} x3 -> 3; x=1 {3,1,2} -> 2; x=2 {1,2,2} -> 2. Same down a column.
    expect(Array.from(median3(Float32Array.from([3, 1, 2]), 3, 1))).toEqual([3, 2, 2]);
    expect(Array.from(median3(Float32Array.from([3, 1, 2]), 1, 3))).toEqual([3, 2, 2]);
    // 4x1 [4 1 3 2]: {4,4,1}->4, {4,1,3}->3, {1,3,2}->2, {3,2,2}->2.
    expect(Array.from(median3(Float32Array.from([4, 1, 3, 2]), 4, 1))).toEqual([4, 3, 2, 2]);
    // 1x1: the pixel itself.
    expect(Array.from(median3(Float32Array.from([0.5]), 1, 1))).toEqual([0.5]);
  });

  it("equals the 5th of the 9 sorted clamped neighbours on a 7x5 image of distinct values", () => {
    const w = 7,
      h = 5;
    // Distinct values: a permutation of 0..34 by a multiplier prime to 35.
    const src = Float32Array.from({ length: w * h }, (_, i) => (i * 12) % 35);
    const out = median3(src, w, h);
    const want: number[] = [];
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const v: number[] = [];
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) v.push(src[Math.min(h - 1, Math.max(0, y + dy)) * w + Math.min(w - 1, Math.max(0, x + dx))]!);
        want.push(v.sort((a, b) => a - b)[4]!);
      }
    expect(Array.from(out)).toEqual(want);
  });

  it("every 0/1 pattern of a 3x3 window gives its majority (0-1 principle for the network)", () => {
    // 512 windows side by side in a 3 x 1536 strip; the centre (3k + 1, 1) of block k sees only
    // block k, whose cell j (row-major) is bit j of k. Median of 9 bits = 1 iff >= 5 ones.
    const w = 3 * 512;
    const src = new Float32Array(3 * w);
    for (let k = 0; k < 512; k++) for (let j = 0; j < 9; j++) src[Math.floor(j / 3) * w + 3 * k + (j % 3)] = (k >> j) & 1;
    const out = median3(src, w, 3);
    const got: number[] = [],
      want: number[] = [];
    for (let k = 0; k < 512; k++) {
      got.push(out[w + 3 * k + 1]!);
      let ones = 0;
      for (let j = 0; j < 9; j++) ones += (k >> j) & 1;
      want.push(ones >= 5 ? 1 : 0);
    }
    expect(got).toEqual(want);
  });

  it("2000 random arrangements of 0..8 in a 3x3 window all give 4", () => {
    const n = 2000,
      w = 3 * n;
    const src = new Float32Array(3 * w);
    let s = 12345;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
    for (let k = 0; k < n; k++) {
      const v = [0, 1, 2, 3, 4, 5, 6, 7, 8];
      for (let i = 8; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [v[i], v[j]] = [v[j]!, v[i]!];
      }
      for (let j = 0; j < 9; j++) src[Math.floor(j / 3) * w + 3 * k + (j % 3)] = v[j]!;
    }
    const out = median3(src, w, 3);
    const centres = Array.from({ length: n }, (_, k) => out[w + 3 * k + 1]);
    expect(centres).toEqual(new Array<number>(n).fill(4));
  });
});

describe("smoothLuminance", () => {
  it("Rec. 709 luminance of uniform colours (a flat image passes the filters unchanged)", () => {
    const flat = (c: RGBA) => Array.from(new Set(smoothLuminance(image(5, 4, () => c))));
    // (0.2126 R + 0.7152 G + 0.0722 B) / 255, in float32.
    expect(flat([255, 0, 0, 255])).toEqual([Math.fround(0.2126)]);
    expect(flat([0, 255, 0, 255])).toEqual([Math.fround(0.7152)]);
    expect(flat([0, 0, 255, 255])).toEqual([Math.fround(0.0722)]);
    expect(flat([0, 0, 0, 255])).toEqual([0]);
    expect(flat(grey(255))).toEqual([1]);
    const g = flat(grey(51)); // 51 / 255 = 0.2
    expect(g.length).toBe(1);
    expect(g[0]).toBeCloseTo(0.2, 6);
  });

  it("3x1 black / 0.2 / white: the radius-2 window covers the image, so out = a L + b", () => {
    // Median keeps a monotone row. mean m = (0 + 0.2 + 1) / 3 = 0.4, mean of squares
    // (0 + 0.04 + 1) / 3 = 0.346667, var = 0.186667, a = var / (var + 0.0025) = 0.986784,
    // b = (1 - a) m = 0.0052863: out = [b, 0.2 a + b, a + b].
    const s = smoothLuminance(image(3, 1, (x) => grey([0, 51, 255][x]!)));
    expect(s[0]).toBeCloseTo(0.0052863, 6);
    expect(s[1]).toBeCloseTo(0.2026432, 6);
    expect(s[2]).toBeCloseTo(0.9920705, 6);
  });

  it("the radius follows the longer side (1 x 1000: r = 3), the plain filter below 1536", () => {
    const img = image(1, 1000, (_, y) => grey(y < 500 ? 40 : y < 503 ? 200 : 120));
    const lum = Float32Array.from({ length: 1000 }, (_, y) => (y < 500 ? 40 : y < 503 ? 200 : 120) / 255);
    const med = median3(lum, 1, 1000);
    const got = Array.from(smoothLuminance(img));
    expect(got).toEqual(Array.from(guidedFilter(med, 1, 1000, 3, 0.0025)));
    expect(got).not.toEqual(Array.from(guidedFilter(med, 1, 1000, 2, 0.0025)));
  });

  it("from 1536 pixels the fast filter (r = round(1536 / 400) = 4), at 1535 the plain one", () => {
    for (const w of [1535, 1536]) {
      const v = (x: number) => (x % 97 < 40 ? 30 : x % 97 < 43 ? 230 : 150);
      const lum = Float32Array.from({ length: w }, (_, x) => v(x) / 255);
      const med = median3(lum, w, 1);
      const fast = Array.from(fastGuidedFilter(med, w, 1, 4, 0.0025)),
        full = Array.from(guidedFilter(med, w, 1, 4, 0.0025));
      expect(fast).not.toEqual(full);
      const got = Array.from(smoothLuminance(image(w, 1, (x) => grey(v(x)))));
      expect(got).toEqual(w === 1536 ? fast : full);
    }
  });
});

describe("depthFromImage", () => {
  it("a white image: 1st percentile bin 1023 (clamped from 1024), hi = lo + 1/64, depth 1/16", () => {
    // lum 1 -> bin min(1023, 1024) -> lo = 1023/1024 = pct(0.99); hi = lo + 16/1024;
    // d = (1 - 1023/1024) / (16/1024) = 1/16.
    const img = image(4, 4, () => grey(255));
    const d = depthFromImage(img, { rmbg: false, tolerance: 0.02, invert: false });
    expect([d.width, d.height, d.mask]).toEqual([4, 4, null]);
    expect(Array.from(d.gray)).toEqual(new Array<number>(16).fill(0.0625));
    const e = depthFromImage(img, { rmbg: false, tolerance: 0.02, invert: true });
    expect(Array.from(e.gray)).toEqual(new Array<number>(16).fill(0.9375));
  });

  it("a black image: lo = 0, hi = 1/64, depth 0 (engraved: 1)", () => {
    const img = image(3, 2, () => grey(0));
    expect(Array.from(depthFromImage(img, { rmbg: false, tolerance: 0.02, invert: false }).gray)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(depthFromImage(img, { rmbg: false, tolerance: 0.02, invert: true }).gray)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("3x1 black / 0.2 / white: stretched between the bins of the smoothed ends", () => {
    // Smoothed [0.0052863, 0.2026432, 0.9920705] (above): bins floor(1024 v) = 5, 207, 1015.
    // 3 pixels: pct(0.01) = the lowest bin, pct(0.99) needs all 3 = the highest:
    // lo = 5/1024, hi = 1015/1024, d = (v - lo) / (1010/1024) clamped: 0.0004091, 0.2005016, 1.
    const img = image(3, 1, (x) => grey([0, 51, 255][x]!));
    const d = depthFromImage(img, { rmbg: false, tolerance: 0.02, invert: false }).gray;
    expect(d[0]).toBeCloseTo(0.0004091, 6);
    expect(d[1]).toBeCloseTo(0.2005016, 6);
    expect(d[2]).toBe(1);
    const e = depthFromImage(img, { rmbg: false, tolerance: 0.02, invert: true }).gray;
    expect(e[0]).toBeCloseTo(1 - 0.0004091, 6);
    expect(e[1]).toBeCloseTo(1 - 0.2005016, 6);
    expect(e[2]).toBe(0);
  });

  it("100x1: the 1st / 99th percentiles sit exactly on 1 and 99 of 100 pixels", () => {
    // Black pixel 0, grey 128 in between, white pixel 99 (the clamped median keeps both ends).
    // Smoothed (radius 2): s[0] = 0.0188906 (bin 19) is alone below s[1] = 0.4971307 (bin 509);
    // s[99] = 0.9809763 (bin 1004) alone above s[98] = 0.5068251 (bin 518).
    // acc >= 0.01 * 100 = 1 at bin 19 -> lo = 19/1024; acc >= 99 at bin 518 -> hi = 518/1024.
    const img = image(100, 1, (x) => grey(x === 0 ? 0 : x === 99 ? 255 : 128));
    const s = smoothLuminance(img);
    expect(s[0]).toBeCloseTo(0.0188906, 6);
    expect(s[1]).toBeCloseTo(0.4971307, 6);
    expect(s[97]).toBeCloseTo(0.5058522, 6);
    expect(s[98]).toBeCloseTo(0.5068251, 6);
    expect(s[99]).toBeCloseTo(0.9809763, 6);
    const d = depthFromImage(img, { rmbg: false, tolerance: 0.02, invert: false }).gray;
    // (s - 19/1024) / (499/1024): 0.0006893, 0.9820879, 0.9999853, then 1.0019768 and 1.97 -> 1.
    expect(d[0]).toBeCloseTo(0.0006893, 6);
    expect(d[1]).toBeCloseTo(0.9820879, 6);
    expect(d[97]).toBeCloseTo(0.9999853, 6);
    expect([d[98], d[99]]).toEqual([1, 1]);
  });

  it("rmbg with an alpha silhouette: percentiles over the subject only, background 0", () => {
    // 30x30: a white 20x20 block (5..24) on black, alpha opaque on its inner 10x10 (10..19).
    // The subject's pixels are >= 5 px from the black, so their smoothed luminance is exactly 1:
    // its histogram is bin 1023 alone -> depth 1/16 (white image above). Counting the black
    // background too would give lo = 0 and depth 1. Outside the subject (even where white): 0.
    const img = image(
      30,
      30,
      (x, y) => {
        const white = x >= 5 && x < 25 && y >= 5 && y < 25,
          subject = x >= 10 && x < 20 && y >= 10 && y < 20;
        return white ? [255, 255, 255, subject ? 255 : 0] : [0, 0, 0, 0];
      },
      true,
    );
    for (const invert of [false, true]) {
      const d = depthFromImage(img, { rmbg: true, tolerance: 0.02, invert });
      const inside = invert ? 0.9375 : 0.0625;
      for (let y = 0; y < 30; y++)
        for (let x = 0; x < 30; x++) {
          const subject = x >= 10 && x < 20 && y >= 10 && y < 20;
          expect(d.mask![y * 30 + x]).toBe(subject ? 1 : 0);
          expect(d.gray[y * 30 + x]).toBe(subject ? inside : 0);
        }
    }
  });
});
