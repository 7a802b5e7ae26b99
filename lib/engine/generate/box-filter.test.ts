import { describe, expect, it } from "vitest";
import { boxBlur, boxMean } from "./box-filter";
import { mulberry32 } from "./random";

function randomGrid(w: number, h: number, seed: number): Float32Array {
  const next = mulberry32(seed);
  return Float32Array.from({ length: w * h }, () => Math.round(next() * 1000) / 100);
}

/** Sum and pixel count of the (2r+1)^2 window around (x, y), clipped to the grid. */
function naiveWindow(src: Float32Array, w: number, h: number, r: number, x: number, y: number): { sum: number; n: number } {
  let sum = 0,
    n = 0;
  for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++)
    for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) {
      sum += src[yy * w + xx]!;
      n++;
    }
  return { sum, n };
}

function expectGrid(actual: Float32Array, expected: (x: number, y: number) => number, w: number, h: number): void {
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const e = expected(x, y);
      const a = actual[y * w + x]!;
      if (!(Math.abs(a - e) <= 1e-4 * Math.max(1, Math.abs(e)))) throw new Error(`pixel (${x}, ${y}) of ${w}x${h}: ${a}, expected ${e}`);
    }
}

// Square, wide, tall, single row and column, radius 0 to larger than the grid.
const SHAPES: [number, number][] = [
  [7, 7],
  [9, 4],
  [3, 8],
  [1, 6],
  [6, 1],
  [1, 1],
  [12, 5],
];
const RADII = [0, 1, 2, 3, 5, 20];

describe("boxMean", () => {
  it("is the mean of the clipped window for every radius and grid shape", () => {
    let seed = 1;
    for (const [w, h] of SHAPES)
      for (const r of RADII) {
        const src = randomGrid(w, h, seed++);
        const out = new Float32Array(w * h),
          tmp = new Float32Array(w * h);
        boxMean(src, w, h, r, out, tmp);
        expectGrid(
          out,
          (x, y) => {
            const { sum, n } = naiveWindow(src, w, h, r, x, y);
            return sum / n;
          },
          w,
          h,
        );
      }
  });

  it("gives a hand-checked 3x3 mean at radius 1 and keeps a constant grid constant", () => {
    const src = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const out = new Float32Array(9);
    boxMean(src, 3, 3, 1, out, new Float32Array(9));
    expect(Array.from(out)).toEqual([3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7]);
    const flat = new Float32Array(35).fill(2.5);
    boxMean(flat, 7, 5, 2, flat, new Float32Array(35));
    expect(Array.from(flat)).toEqual(new Array(35).fill(2.5));
  });

  it("may write into its source", () => {
    const src = randomGrid(8, 5, 99);
    const copy = src.slice();
    const expected = new Float32Array(40);
    boxMean(copy, 8, 5, 2, expected, new Float32Array(40));
    boxMean(src, 8, 5, 2, src, new Float32Array(40));
    expect(Array.from(src)).toEqual(Array.from(expected));
  });
});

describe("boxBlur", () => {
  it("is the zero-padded window sum for every radius and grid shape", () => {
    let seed = 100;
    for (const [w, h] of SHAPES)
      for (const r of RADII) {
        const src = randomGrid(w, h, seed++);
        const out = new Float32Array(w * h),
          tmp = new Float32Array(w * h);
        boxBlur(src, w, h, r, out, tmp);
        expectGrid(out, (x, y) => naiveWindow(src, w, h, r, x, y).sum, w, h);
      }
  });

  it("gives a hand-checked 4x2 sum at radius 1 (not normalised at the border)", () => {
    const src = Float32Array.from([1, 1, 1, 1, 1, 1, 1, 1]);
    const out = new Float32Array(8);
    boxBlur(src, 4, 2, 1, out, new Float32Array(8));
    expect(Array.from(out)).toEqual([4, 6, 6, 4, 4, 6, 6, 4]);
  });

  it("may write into its source", () => {
    const src = randomGrid(6, 9, 7);
    const expected = new Float32Array(54);
    boxBlur(src.slice(), 6, 9, 3, expected, new Float32Array(54));
    boxBlur(src, 6, 9, 3, src, new Float32Array(54));
    expect(Array.from(src)).toEqual(Array.from(expected));
  });
});
