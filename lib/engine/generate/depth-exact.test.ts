// Exact values of depth.ts (median3, smoothLuminance, depthFromImage, reliefScene) on hand-built
// inputs: 2x2..100x1 images, 4x2..12x8 depth maps; every figure is derived in a comment.
import { describe, expect, it } from "vitest";
import {
  BASE_TRIANGLES,
  type DepthMap,
  PRO_TRIANGLES,
  type ReliefOptions,
  SMOOTHING_EPS,
  depthFromImage,
  depthSizeFor,
  median3,
  reliefScene,
  reliefTolerance,
  smoothLuminance,
  smoothingRadius,
} from "./depth";
import { fastGuidedFilter, guidedFilter } from "./depth-filter";
import type { DecodedImage } from "./image-input";
import type { MeshPart } from "@/lib/engine/mesh/types";
import { euler, vertexManifold } from "./depth.test-helpers";
import { checkManifold, meshBounds, signedVolume } from "./mesh-ops";

type RGBA = [number, number, number, number];

/** A w x h RGBA image painted per pixel (alpha flag as given). */
function image(w: number, h: number, paint: (x: number, y: number) => RGBA, hasAlpha = false): DecodedImage {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set(paint(x, y), (y * w + x) * 4);
  return { width: w, height: h, data, hasAlpha };
}

const grey = (v: number): RGBA => [v, v, v, 255];

/** A depth map from per-pixel depth and (optionally) mask functions. */
function depthMap(w: number, h: number, depth: (x: number, y: number) => number, mask?: (x: number, y: number) => number): DepthMap {
  const gray = new Float32Array(w * h);
  const m = mask ? new Uint8Array(w * h) : null;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      gray[y * w + x] = depth(x, y);
      if (m && mask) m[y * w + x] = mask(x, y);
    }
  return { width: w, height: h, gray, mask: m };
}

const key = (x: number, z: number) => `${(+x.toFixed(4)).toString()},${(+z.toFixed(4)).toString()}`;

/** Top-surface vertices (Y > 0) keyed by rounded "X,Z", value Y (rounded to 5 digits). */
function topHeights(part: MeshPart): Map<string, number> {
  const out = new Map<string, number>();
  const p = part.positions;
  for (let i = 0; i < p.length; i += 3) if (p[i + 1]! > 0) out.set(key(p[i]!, p[i + 2]!), +p[i + 1]!.toFixed(5));
  return out;
}

/** Plan positions "X,Z" of the bottom vertices (Y = 0), sorted. */
function bottomKeys(part: MeshPart): string[] {
  const out = new Set<string>();
  const p = part.positions;
  for (let i = 0; i < p.length; i += 3) if (p[i + 1] === 0) out.add(key(p[i]!, p[i + 2]!));
  return [...out].sort();
}

const relief = (d: DepthMap, o: ReliefOptions): MeshPart => {
  const s = reliefScene(d, o);
  expect(s.parts.length).toBe(1);
  expect(s.parts[0]!.name).toBe("relief");
  return s.parts[0]!;
};

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

describe("reliefScene", () => {
  // Columns of depth 0, 0.25, 0.5, 1 over 2 rows: corner i averages the cells i - 1 and i:
  // 0, 0.125, 0.375, 0.75, 1; stretched over 0..1 to base 1 + relief 2 * d:
  // 1, 1.25, 1.75, 2.5, 3 at X = -4, -2, 0, 2, 4 (8 mm over 4 cells: 2 mm a cell, centred).
  const profile = [0, 0.25, 0.5, 1];
  const rampHeights = [1, 1.25, 1.75, 2.5, 3];

  it("square plate: corner means, exact heights, bounds and volume", () => {
    const p = relief(
      depthMap(4, 2, (x) => profile[x]!),
      { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0 },
    );
    const b = meshBounds(p.positions);
    expect([...b.min, ...b.max]).toEqual([-4, 0, -2, 4, 3, 2]);
    const top = topHeights(p);
    for (let i = 0; i <= 4; i++) for (const z of [-2, 2]) expect(top.get(key(2 * i - 4, z))).toBe(rampHeights[i]);
    // Every top vertex lies on the ramp (its height is its column's).
    for (const [k, y] of top) expect(y).toBe(rampHeights[(+k.split(",")[0]! + 4) / 2]);
    // Each cell is planar (height varies along X only): 2 rows x 4 mm2 x the mean of its ends.
    // 8 (1.125 + 1.5 + 2.125 + 2.75) = 60. Positive: outward-oriented after the mirror.
    expect(signedVolume(p.positions, p.indices)).toBeCloseTo(60, 4);
    expect(bottomKeys(p)).toContain(key(-4, -2));
  });

  it("one pixel a cell reads each pixel of a map that varies along both axes", () => {
    // Pixels (x, y): (0,0) 0, (1,0) 1, (0,1) 0.5, (1,1) 0; 2 cells of 4 mm, corners at -4, 0, 4.
    // Corner (i, j) is the mean of its cells: row j = 0: 0, 0.5, 1; j = 1: 0.25, 0.375, 0.5;
    // j = 2: 0.5, 0.25, 0. Span 0..1, so height = 1 + 2 d; row j at Z = 4 j - 4, column i at X = 4 i - 4.
    const p = relief(
      depthMap(2, 2, (x, y) => [0, 1, 0.5, 0][y * 2 + x]!),
      { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0 },
    );
    const d = [
      [0, 0.5, 1],
      [0.25, 0.375, 0.5],
      [0.5, 0.25, 0],
    ];
    const want = d.flatMap((row, j) => row.map((v, i) => [key(4 * i - 4, 4 * j - 4), 1 + 2 * v] as const));
    expect([...topHeights(p).entries()].sort()).toEqual(want.map(([k, h]) => [k, h]).sort());
  });

  it("re-stretches the corner depths: 0.2..0.5 spans base..base + relief", () => {
    // Columns 0.2, 0.3, 0.4, 0.5: corners 0.2, 0.25, 0.35, 0.45, 0.5; (d - 0.2) / 0.3 * 2 + 1 =
    // 1, 4/3, 2, 8/3, 3. Volume 8 (7/6 + 5/3 + 7/3 + 17/6) = 64.
    const p = relief(
      depthMap(4, 2, (x) => 0.2 + 0.1 * x),
      { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0 },
    );
    const top = topHeights(p);
    [1, 4 / 3, 2, 8 / 3, 3].forEach((h, i) => expect(top.get(key(2 * i - 4, 2))).toBeCloseTo(h, 4));
    expect(signedVolume(p.positions, p.indices)).toBeCloseTo(64, 3);
  });

  it("a constant depth is not stretched: the top is flat at base + relief * depth", () => {
    // span 0: scale = relief, offset 0 -> 1 + 2 * 0.5 = 2; volume 8 x 4 x 2 = 64.
    const p = relief(
      depthMap(4, 2, () => 0.5),
      { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0 },
    );
    expect(new Set(topHeights(p).values())).toEqual(new Set([2]));
    expect(signedVolume(p.positions, p.indices)).toBeCloseTo(64, 4);
    const b = meshBounds(p.positions);
    expect([...b.min, ...b.max]).toEqual([-4, 0, -2, 4, 2, 2]);
  });

  it("cells: 4 on 8x4 pixels averages 2x2 pixels per cell", () => {
    // Pixel columns 2c, 2c + 1 hold profile[c]; odd columns get -0.05 / +0.05 on even / odd rows,
    // which the 2x2 mean cancels: the same plate as the 4x2 ramp.
    const p = relief(
      depthMap(8, 4, (x, y) => profile[x >> 1]! + (x % 2 ? (y % 2 ? 0.05 : -0.05) : 0)),
      { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0, cells: 4 },
    );
    const top = topHeights(p);
    for (let i = 0; i <= 4; i++) for (const z of [-2, 2]) expect(top.get(key(2 * i - 4, z))).toBe(rampHeights[i]);
    for (const [k, y] of top) expect(y).toBe(rampHeights[(+k.split(",")[0]! + 4) / 2]);
    expect(signedVolume(p.positions, p.indices)).toBeCloseTo(60, 4);
  });

  it("cells: 4 on 2x2 pixels: each pixel spreads over 2x2 cells", () => {
    // Pixels [0 0.5; 0.5 1]; cell (x, y) takes pixel (x >> 1, y >> 1). Corner (1,1) is inside
    // pixel 0's block: 0; (2,2) averages the four: 0.5; (0,2) and (2,0): 0.25; (4,4): 1.
    // Heights 1 + 2 d at X = i - 2, Z = j - 2 (4 mm over 4 cells).
    const p = relief(
      depthMap(2, 2, (x, y) => [0, 0.5, 0.5, 1][y * 2 + x]!),
      { widthMm: 4, reliefMm: 2, baseMm: 1, shape: 0, cells: 4 },
    );
    const top = topHeights(p);
    expect(top.get(key(-1, -1))).toBe(1);
    expect(top.get(key(0, 0))).toBe(2);
    expect(top.get(key(1, 1))).toBe(3);
    expect(top.get(key(2, 2))).toBe(3);
    expect(top.get(key(-2, 0))).toBe(1.5);
    expect(top.get(key(0, -2))).toBe(1.5);
    expect(top.get(key(-2, -2))).toBe(1);
    // Symmetric about the anti-diagonal: mean height 2 over 16 mm2.
    expect(signedVolume(p.positions, p.indices)).toBeCloseTo(32, 4);
  });

  it("circle of 10 cells: cells wholly inside r = 5, the (3, 4) corner on the circle included", () => {
    // Cell far-corner offsets (fx, fy) in 1..5 with fx^2 + fy^2 <= 25: 15 per quadrant; the
    // staircase corners (0,4) (1,4) (2,4) (3,4) (3,3) (4,3) (4,2) (4,1) (4,0) project radially onto
    // r = 5; (3,4) and (4,3) are on it already. 10 mm / (2 r) = 1 mm a cell.
    const p = relief(
      depthMap(10, 10, () => 0.5),
      { widthMm: 10, reliefMm: 2, baseMm: 1, shape: 1 },
    );
    const bottom = bottomKeys(p);
    for (const [x, z] of [
      [3, 4],
      [4, 3],
      [0, 5],
      [5, 0],
    ])
      for (const [sx, sz] of [
        [1, 1],
        [1, -1],
        [-1, 1],
        [-1, -1],
      ])
        expect(bottom).toContain(key(sx! * x!, sz! * z!));
    const c = 5 / Math.SQRT2; // (3,3) projected
    expect(bottom).toContain(key(c, -c));
    expect(bottom).toContain(key((5 * 2) / Math.sqrt(20), (5 * 4) / Math.sqrt(20))); // (2,4)
    expect(bottom).toContain(key(-5 / Math.sqrt(17), (5 * 4) / Math.sqrt(17))); // (-1,4)
    // Flat top at 1 + 2 * 0.5; every vertex within the circle of 5 mm.
    expect(new Set(topHeights(p).values())).toEqual(new Set([2]));
    let maxR = 0;
    for (let i = 0; i < p.positions.length; i += 3) maxR = Math.max(maxR, Math.hypot(p.positions[i]!, p.positions[i + 2]!));
    expect(maxR).toBeCloseTo(5, 5);
    const b = meshBounds(p.positions);
    [-5, 0, -5, 5, 2, 5].forEach((v, i) => expect([...b.min, ...b.max][i]).toBeCloseTo(v, 5));
  });

  it("circle on 5x5: the cell count is made even (4), r = 2: an octagon", () => {
    // 4 cells, r = 2: only the centre 2x2 cells fit (far corner (1,1)); corners (1,1) -> (sqrt2, sqrt2),
    // edge midpoints (1,0) -> (2,0). Width 4 mm: 1 mm a cell.
    const p = relief(
      depthMap(5, 5, () => 0.5),
      { widthMm: 4, reliefMm: 2, baseMm: 1, shape: 1 },
    );
    const r = Math.SQRT2;
    const want = [key(-2, 0), key(2, 0), key(0, -2), key(0, 2), key(-r, -r), key(-r, r), key(r, -r), key(r, r), key(0, 0)].sort();
    expect(bottomKeys(p)).toEqual(want);
    expect([...topHeights(p).keys()].sort()).toEqual(want);
  });

  it("circle crops the centred square: a step at pixel column 6 of 12 lands on the centre", () => {
    // 12x8: side 8, crop columns 2..9; pixel 6 is cell 4 = the centre (X = 0). Left of it depth 0
    // (height 1), right 1 (height 3), corners on X = 0 average both: 2. 8 mm / 8 cells.
    for (const cells of [undefined, 4]) {
      const p = relief(
        depthMap(12, 8, (x) => (x >= 6 ? 1 : 0)),
        { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 1, cells },
      );
      const top = topHeights(p);
      expect(top.size).toBeGreaterThan(8);
      for (const [k, y] of top) {
        const x = +k.split(",")[0]!;
        expect([k, y]).toEqual([k, x < 0 ? 1 : x > 0 ? 3 : 2]);
      }
      expect(top.get(key(0, 4))).toBe(2);
      expect(top.get(key(4, 0))).toBe(3);
      expect(top.get(key(-4, 0))).toBe(1);
    }
    // Transposed (8x12): crop rows 2..9, the step along Z.
    const q = relief(
      depthMap(8, 12, (_, y) => (y >= 6 ? 1 : 0)),
      { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 1 },
    );
    for (const [k, y] of topHeights(q)) {
      const z = +k.split(",")[1]!;
      expect([k, y]).toEqual([k, z < 0 ? 1 : z > 0 ? 3 : 2]);
    }
  });

  it("circle crop at 2 pixels a cell: 24x16 -> 8 cells from column 4, each the mean of 2x2", () => {
    // Side 16, crop columns 4..19, cell x = pixels 4 + 2x, 5 + 2x. Step at pixel 12 = cell 4 = the
    // centre; pixels 14 / 15 (cell 5) hold 0.6 / 1.4, mean 1. Heights as at full resolution.
    const v = (px: number) => (px < 12 ? 0 : px === 14 ? 0.6 : px === 15 ? 1.4 : 1);
    const check = (p: MeshPart, axis: 0 | 1) => {
      const top = topHeights(p);
      expect(top.size).toBeGreaterThan(8);
      for (const [k, y] of top) {
        const t = +k.split(",")[axis]!;
        expect([k, y]).toEqual([k, t < 0 ? 1 : t > 0 ? 3 : 2]);
      }
    };
    check(
      relief(
        depthMap(24, 16, (x) => v(x)),
        { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 1, cells: 8 },
      ),
      0,
    );
    check(
      relief(
        depthMap(16, 24, (_, y) => v(y)),
        { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 1, cells: 8 },
      ),
      1,
    );
  });

  it("rmbg mask: the outline is smoothed twice (rim weights 1/2, 1/4, 1/4) and centred", () => {
    // Full 4x4 mask: corner (0,0) -> (0.25, 0.25) -> (0.375, 0.375); its neighbour (0,1) ->
    // (0, 1) -> (0.0625, 1.0625); mid-side (0,2) stays. Bounds 0..4 -> 8 mm: X = 2 (x - 2).
    const d = depthMap(
      4,
      4,
      () => 0.5,
      () => 1,
    );
    const p = relief(d, { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 1 }); // shape ignored with a mask
    const bottom = bottomKeys(p);
    for (const [x, z] of [
      [-3.25, -3.25],
      [3.25, 3.25],
      [-3.875, -1.875],
      [-1.875, -3.875],
      [-4, 0],
      [0, 4],
    ])
      expect(bottom).toContain(key(x!, z!));
    expect(bottom).not.toContain(key(-4, -4));
    const b = meshBounds(p.positions);
    expect([...b.min, ...b.max]).toEqual([-4, 0, -4, 4, 2, 4]);
  });

  it("rmbg mask away from the border: centred on the subject's bounds, the mask left untouched", () => {
    // Subject cells x 2..4, y 1..3 of 6x6 (a 3x3 block) plus a diagonal pinch cell (5, 4), which
    // regularizeGridMask fills on its own copy. Bounds are symmetric about the subject's middle.
    const d = depthMap(
      6,
      6,
      (x) => x / 6,
      (x, y) => ((x >= 2 && x <= 4 && y >= 1 && y <= 3) || (x === 5 && y === 4) ? 1 : 0),
    );
    const before = Array.from(d.mask!);
    const p = relief(d, { widthMm: 6, reliefMm: 2, baseMm: 1, shape: 0 });
    expect(Array.from(d.mask!)).toEqual(before);
    // The filled pinch leaves one simple shell: closed, two-manifold at every edge and vertex.
    expect(checkManifold(p.indices)).toMatchObject({ closed: true, oriented: true, boundaryEdges: 0, nonManifoldEdges: 0 });
    expect(vertexManifold(p.indices, p.positions.length / 3)).toBe(true);
    expect(euler(p.indices)).toBe(2);
    const b = meshBounds(p.positions);
    expect(b.min[0]).toBeCloseTo(-3, 5);
    expect(b.max[0]).toBeCloseTo(3, 5);
    expect(b.min[2]).toBeCloseTo(-b.max[2], 5);
    expect(b.max[1]).toBeCloseTo(3, 5);
  });

  it("rmbg mask at cells: 4 on 8x8: resampled, each cell the mean of its 2x2 pixels", () => {
    // Mask pixels 2..5 -> cells 1..2; checkerboard 0.25 / 0.75 averages to 0.5 in every cell, so
    // the top is flat at 1 + 2 * 0.5 = 2 (the depth 1 outside the subject takes no part). Rim (grid): corner (1,1) -> (1.375, 1.375), side (1,2)
    // -> (1.125, 2): bounds 1.125..2.875, 4 mm / 1.75: corner X = -0.625 * 4 / 1.75 = -1.428571.
    const d = depthMap(
      8,
      8,
      (x, y) => (x >= 2 && x <= 5 && y >= 2 && y <= 5 ? ((x + y) % 2 ? 0.75 : 0.25) : 1),
      (x, y) => (x >= 2 && x <= 5 && y >= 2 && y <= 5 ? 1 : 0),
    );
    const p = relief(d, { widthMm: 4, reliefMm: 2, baseMm: 1, shape: 0, cells: 4 });
    expect(new Set(topHeights(p).values())).toEqual(new Set([2]));
    const c = (0.625 * 4) / 1.75;
    const want = [key(-c, -c), key(-c, c), key(c, -c), key(c, c), key(-2, 0), key(2, 0), key(0, -2), key(0, 2), key(0, 0)].sort();
    expect(bottomKeys(p)).toEqual(want);
  });

  it("keeps the highest corner even when the error allowed would merge it away", () => {
    // 8x8, cells (2..3, 2..3) = 1: corner (3,3) averages four ones (d = 1, height 3), at
    // X = Z = 3 - 4 = -1. Its own error is not forced by the outline, so only `keep` holds it.
    // Cell (7,7) = 1 makes the outline corner (8,8) a later maximum: the first one is kept.
    const d = depthMap(8, 8, (x, y) => ((x >= 2 && x <= 3 && y >= 2 && y <= 3) || (x === 7 && y === 7) ? 1 : 0));
    const loose = relief(d, { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0, maxErrorMm: 100 });
    expect(topHeights(loose).get(key(-1, -1))).toBe(3);
    expect(meshBounds(loose.positions).max[1]).toBe(3);
    // The error (and the triangle budget) reach the mesh: fewer vertices than at the default.
    const fine = relief(d, { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0 });
    const budget = relief(d, { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0, maxTriangles: 1 });
    expect(topHeights(loose).size).toBeLessThan(topHeights(fine).size);
    expect(topHeights(budget).size).toBeLessThan(topHeights(fine).size);
    // Corner (2,2) averages one 1 of four: d = 0.25, height 1.5.
    expect(topHeights(fine).get(key(-2, -2))).toBe(1.5);
  });
});

// Found by these tests: a depth map one pixel high gets gh = max(2, 1) = 2 cell rows at one pixel
// a cell, and row 1 read gray past its end (NaN heights); a 4 x 2 map at 2 cells read a row below
// the image as depth 0. Cells past the last pixel now repeat it.
describe("strips thinner than the 2-cell minimum", () => {
  it("a 4 x 1 map: both cell rows carry the pixel row's depths, no NaN", () => {
    const p = relief(
      depthMap(4, 1, (x) => x / 3),
      { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0 },
    );
    expect(p.positions.some(Number.isNaN)).toBe(false);
    // 2 mm cells, corners at X = -4..4 and Z = -2, 0, 2; a corner's depth is the mean of its cells
    // (0, 1/3, 2/3, 1 along X), height = base 1 + relief 2 x depth, the same on every row. The
    // flat middle corner (0, 0) is merged away.
    const row = (z: number) => [
      [key(-4, z), 1],
      [key(-2, z), 1.33333],
      [key(0, z), 2],
      [key(2, z), 2.66667],
      [key(4, z), 3],
    ];
    const want = [...row(-2), ...row(0), ...row(2)].filter(([k]) => k !== key(0, 0));
    expect([...topHeights(p).entries()].sort()).toEqual(want.sort());
  });
  it("a 1 x 4 map: both cell columns carry the pixel column's depths (the same strip on end)", () => {
    const p = relief(
      depthMap(1, 4, (_x, y) => y / 3),
      { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0 },
    );
    // widthMm is along X: 2 cells of 4 mm, so the 4 rows span Z = -8..8; heights as above by row.
    const column = (x: number) => [
      [key(x, -8), 1],
      [key(x, -4), 1.33333],
      [key(x, 0), 2],
      [key(x, 4), 2.66667],
      [key(x, 8), 3],
    ];
    const want = [...column(-4), ...column(0), ...column(4)].filter(([k]) => k !== key(0, 0));
    expect([...topHeights(p).entries()].sort()).toEqual(want.sort());
  });
  it("a 4 x 2 map at 2 cells: the lower cell row reads the last pixel row, not 0", () => {
    const d = depthMap(4, 2, (_x, y) => y);
    const p = relief(d, { widthMm: 8, reliefMm: 2, baseMm: 1, shape: 0, cells: 2 });
    // Cell rows: upper = mean of pixel rows 0 and 1 = 0.5, lower = pixel row 1 = 1 (it read a
    // row below the image as 0 before, which turned the slope upside down). Re-stretched to 0 and
    // 1, so corner rows Z = -4, 0, 4 stand at 1, 2 and 3 mm.
    const want = [-4, 0, 4].flatMap((x) => [-4, 0, 4].map((z) => [key(x, z), 2 + z / 4] as const));
    expect([...topHeights(p).entries()].sort()).toEqual(want.map(([k, v]) => [k, v]).sort());
  });
});
