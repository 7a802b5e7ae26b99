import { describe, expect, it } from "vitest";
import { cleanMask, countSet, distanceTransform, INF, labelComponents, maskBounds, powerTransform, resampleMask } from "./mask-ops";
import { mulberry32 } from "./random";

/** A mask from rows of "#" (set) and "." (unset). */
function parse(rows: string[]): { mask: Uint8Array; w: number; h: number } {
  const w = rows[0]!.length,
    h = rows.length;
  return { mask: Uint8Array.from(rows.join(""), (c) => (c === "#" ? 1 : 0)), w, h };
}
const show = (mask: Uint8Array, w: number): string[] =>
  Array.from({ length: mask.length / w }, (_, y) => Array.from(mask.subarray(y * w, y * w + w), (v) => (v ? "#" : ".")).join(""));

function randomMask(w: number, h: number, density: number, seed: number): Uint8Array {
  const next = mulberry32(seed);
  return Uint8Array.from({ length: w * h }, () => (next() < density ? 1 : 0));
}

/** Components by repeated relabelling to the smallest neighbour id until stable, then renumbered in raster order. */
function naiveComponents(mask: Uint8Array, w: number, h: number, value: number) {
  const lab = Array.from(mask, (v, p) => (v === value ? p : -1));
  for (let changed = true; changed;) {
    changed = false;
    for (let p = 0; p < w * h; p++) {
      if (lab[p]! < 0) continue;
      const x = p % w,
        y = Math.floor(p / w);
      for (const [nx, ny] of [
        [x - 1, y],
        [x + 1, y],
        [x, y - 1],
        [x, y + 1],
      ]) {
        if (nx! < 0 || ny! < 0 || nx! >= w || ny! >= h) continue;
        const q = ny! * w + nx!;
        if (lab[q]! >= 0 && lab[q]! < lab[p]!) {
          lab[p] = lab[q]!;
          changed = true;
        }
      }
    }
  }
  const ids = new Map<number, number>();
  const labels = lab.map((l) => (l < 0 ? -1 : (ids.get(l) ?? ids.set(l, ids.size).get(l)!)));
  const sizes = new Array<number>(ids.size).fill(0);
  const touchesBorder = new Array<boolean>(ids.size).fill(false);
  labels.forEach((id, p) => {
    if (id < 0) return;
    sizes[id]!++;
    const x = p % w,
      y = Math.floor(p / w);
    if (x === 0 || y === 0 || x === w - 1 || y === h - 1) touchesBorder[id] = true;
  });
  return { labels, sizes, touchesBorder };
}

describe("labelComponents", () => {
  it("labels 4-connected components in raster order with their sizes and border contact", () => {
    const { mask, w, h } = parse(["##..#", "#..##", "..#..", ".###.", "....."]);
    const c = labelComponents(mask, w, h);
    expect(
      show(
        Uint8Array.from(c.labels, (l) => l + 1),
        w,
      ),
    ).toEqual(show(mask, w));
    expect(Array.from(c.labels)).toEqual([0, 0, -1, -1, 1, 0, -1, -1, 1, 1, -1, -1, 2, -1, -1, -1, 2, 2, 2, -1, -1, -1, -1, -1, -1]);
    expect(c.sizes).toEqual([3, 3, 4]);
    expect(c.touchesBorder).toEqual([true, true, false]);
    // The background, diagonal contact does not join.
    const bg = labelComponents(mask, w, h, 0);
    expect(bg.sizes).toEqual([15]);
    expect(bg.touchesBorder).toEqual([true]);
  });

  it("sees each border, of wide and tall grids", () => {
    for (const [w, h] of [
      [6, 3],
      [3, 6],
    ] as const) {
      for (const p of [(w * h) >> 1, 0, w - 1, w * (h - 1), w * h - 1, w, 2 * w - 1, 1, w * (h - 1) + 1]) {
        const mask = new Uint8Array(w * h);
        mask[p] = 1;
        const x = p % w,
          y = Math.floor(p / w);
        expect(labelComponents(mask, w, h).touchesBorder).toEqual([x === 0 || y === 0 || x === w - 1 || y === h - 1]);
      }
    }
  });

  it("matches a naive relabelling on random masks, for both values", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const w = 3 + (seed % 9),
        h = 2 + ((seed * 5) % 11);
      const mask = randomMask(w, h, 0.3 + (seed % 5) * 0.1, seed);
      for (const value of [0, 1]) {
        const c = labelComponents(mask, w, h, value);
        const e = naiveComponents(mask, w, h, value);
        expect(Array.from(c.labels)).toEqual(e.labels);
        expect(c.sizes).toEqual(e.sizes);
        expect(c.touchesBorder).toEqual(e.touchesBorder);
      }
    }
  });
});

describe("cleanMask", () => {
  it("drops specks under minArea, keeps the largest, fills enclosed holes under maxHole", () => {
    const { mask, w, h } = parse([
      "##.......", //
      "#....###.",
      ".....#.#.",
      "..#..###.",
      "......#..",
      "#####.#..",
      "#...#....",
      "#####....",
    ]);
    const out = cleanMask(mask, w, h, 4, 4);
    expect(out).toBe(mask);
    expect(show(out, w)).toEqual([
      ".........", // the 3-pixel and 1-pixel specks go
      ".....###.",
      ".....###.", // 1-pixel hole filled
      ".....###.",
      "......#..",
      "#####.#..", // 3-pixel hole filled: 3 < 4
      "#####....",
      "#####....",
    ]);
  });

  it("keeps components of exactly minArea and holes of exactly maxHole", () => {
    const rows = ["........", ".##.###.", ".##.#.#.", "....#.#.", "....###.", "........"];
    const { mask, w, h } = parse(rows);
    expect(show(cleanMask(mask, w, h, 4, 2), w)).toEqual(rows);
    expect(show(cleanMask(parse(rows).mask, w, h, 5, 3), w)).toEqual([
      "........",
      "....###.",
      "....###.",
      "....###.",
      "....###.",
      "........",
    ]);
  });

  it("keeps the first of equally large components when all are small, and never fills border-touching background", () => {
    const { mask, w, h } = parse(["#...", "....", "...#"]);
    expect(show(cleanMask(mask, w, h, 10, 100), w)).toEqual(["#...", "....", "...."]);
    const ring = parse(["#.#", "#.#", "###"]);
    expect(show(cleanMask(ring.mask, 3, 3, 1, 100), 3)).toEqual(["#.#", "#.#", "###"]);
  });

  it("fills nothing with maxHole 0 and leaves an empty mask empty", () => {
    const { mask, w, h } = parse(["###", "#.#", "###"]);
    expect(show(cleanMask(mask, w, h, 1, 0), w)).toEqual(["###", "#.#", "###"]);
    // The same hole is the first background component: filled once maxHole allows it.
    expect(show(cleanMask(mask, w, h, 1, 2), w)).toEqual(["###", "###", "###"]);
    expect(countSet(cleanMask(new Uint8Array(12), 4, 3, 5, 5))).toBe(0);
  });
});

describe("countSet and maskBounds", () => {
  it("count the set pixels, any non-zero value", () => {
    expect(countSet(new Uint8Array([0, 1, 2, 0, 255]))).toBe(3);
    expect(countSet(new Uint8Array(0))).toBe(0);
  });

  it("give the inclusive box of the set pixels, or null", () => {
    expect(maskBounds(parse(["......", "...#..", ".#....", "....#.", "......"]).mask, 6, 5)).toEqual({ x0: 1, y0: 1, x1: 4, y1: 3 });
    expect(maskBounds(parse(["#..", "...", "..#"]).mask, 3, 3)).toEqual({ x0: 0, y0: 0, x1: 2, y1: 2 });
    expect(maskBounds(parse(["....", ".#..", "...."]).mask, 4, 3)).toEqual({ x0: 1, y0: 1, x1: 1, y1: 1 });
    expect(maskBounds(parse(["..#", "#..", "..."]).mask, 3, 3)).toEqual({ x0: 0, y0: 0, x1: 2, y1: 1 });
    expect(maskBounds(parse(["..#.", "....", "...."]).mask, 4, 3)).toEqual({ x0: 2, y0: 0, x1: 2, y1: 0 });
    expect(maskBounds(parse(["....", "#...", "#..."]).mask, 4, 3)).toEqual({ x0: 0, y0: 1, x1: 0, y1: 2 });
    expect(maskBounds(new Uint8Array(12), 4, 3)).toBeNull();
  });
});

describe("distanceTransform", () => {
  it("is the Euclidean distance to the nearest feature pixel, as brute force finds it", () => {
    for (let seed = 1; seed <= 25; seed++) {
      const w = 1 + (seed % 13),
        h = 1 + ((seed * 7) % 10);
      const feature = randomMask(w, h, [0.02, 0.1, 0.4][seed % 3]!, seed);
      if (countSet(feature) === 0) feature[(seed * 3) % (w * h)] = 1;
      const d = distanceTransform(feature, w, h);
      for (let p = 0; p < w * h; p++) {
        let best = Infinity;
        for (let q = 0; q < w * h; q++)
          if (feature[q]) best = Math.min(best, Math.hypot((p % w) - (q % w), Math.floor(p / w) - Math.floor(q / w)));
        expect(d[p]).toBeCloseTo(best, 4);
      }
    }
  });

  it("gives exact distances around a single pixel and sqrt(INF) with no features", () => {
    const f = new Uint8Array(25);
    f[12] = 1;
    const d = distanceTransform(f, 5, 5);
    expect(d[12]).toBe(0);
    expect(d[13]).toBe(1);
    expect(d[0]).toBeCloseTo(Math.sqrt(8), 6);
    expect(d[2]).toBe(2);
    expect(Array.from(distanceTransform(new Uint8Array(6), 3, 2))).toEqual(new Array(6).fill(Math.fround(Math.sqrt(INF))));
  });
});

describe("powerTransform", () => {
  it("is min over finite-cost pixels of squared distance plus cost, as brute force finds it", () => {
    for (let seed = 1; seed <= 25; seed++) {
      const w = 1 + ((seed * 3) % 11),
        h = 1 + ((seed * 5) % 9);
      const next = mulberry32(seed + 500);
      const cost = Float64Array.from({ length: w * h }, () => (next() < 0.6 ? INF : Math.floor(next() * 30)));
      const out = powerTransform(cost, w, h);
      for (let p = 0; p < w * h; p++) {
        let best = INF;
        for (let q = 0; q < w * h; q++)
          if (cost[q]! < INF) best = Math.min(best, ((p % w) - (q % w)) ** 2 + (Math.floor(p / w) - Math.floor(q / w)) ** 2 + cost[q]!);
        expect(out[p]).toBe(best);
      }
    }
  });

  it("handles the negative costs of inflation (minus squared radii), as brute force does", () => {
    for (let seed = 1; seed <= 15; seed++) {
      const w = 2 + ((seed * 5) % 10),
        h = 2 + ((seed * 3) % 8);
      const next = mulberry32(seed + 900);
      const cost = Float64Array.from({ length: w * h }, () => (next() < 0.3 ? INF : -Math.floor(next() * 40)));
      const out = powerTransform(cost, w, h);
      for (let p = 0; p < w * h; p++) {
        let best = INF;
        for (let q = 0; q < w * h; q++)
          if (cost[q]! < INF) best = Math.min(best, ((p % w) - (q % w)) ** 2 + (Math.floor(p / w) - Math.floor(q / w)) ** 2 + cost[q]!);
        expect(out[p]).toBe(best);
      }
    }
  });

  it("lets a cheap far pixel win over a dear near one, and gives INF where no cost is finite", () => {
    const cost = Float64Array.from([INF, 10, INF, INF, 0, INF, INF]);
    expect(Array.from(powerTransform(cost, 7, 1))).toEqual([11, 9, 4, 1, 0, 1, 4]);
    expect(Array.from(powerTransform(cost, 1, 7))).toEqual([11, 9, 4, 1, 0, 1, 4]);
    expect(Array.from(powerTransform(new Float64Array(4).fill(INF), 2, 2))).toEqual([INF, INF, INF, INF]);
  });
});

describe("resampleMask", () => {
  it("copies the window one pixel per cell, inside a padding of empty cells", () => {
    const { mask, w, h } = parse(["#..#", ".##.", "#.##"]);
    expect(show(resampleMask(mask, w, h, 1, 0, 1, 3, 3, 1), 5)).toEqual([".....", "...#.", ".##..", "..##.", "....."]);
    expect(show(resampleMask(mask, w, h, 0, 0, 1, 4, 3, 0), 4)).toEqual(["#..#", ".##.", "#.##"]);
    // Set pixels just past the window's right and lower edges stay out of the padding.
    expect(show(resampleMask(mask, w, h, 0, 0, 1, 3, 2, 1), 5)).toEqual([".....", ".#...", "..##.", "....."]);
  });

  it("sets a cell when at least half of its footprint is set", () => {
    const { mask, w, h } = parse(["##.#..#.", "........", "#.##..#.", "#.#...#."]);
    // 2 x 2 cells: 2, 1, 0, 1 set in the top row; 2, 3, 0, 2 in the bottom row.
    expect(show(resampleMask(mask, w, h, 0, 0, 2, 4, 2, 0), 4)).toEqual(["#...", "##.#"]);
  });

  it("samples big cells 4 x 4 at their sixteenths and small cells once at their centre", () => {
    // 8-pixel cells are sampled at pixels 1, 3, 5, 7 of each row and column; other pixels do not count.
    const big = (samples: number) => {
      const m = new Uint8Array(64);
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) {
          const sample = x % 2 === 1 && y % 2 === 1;
          m[y * 8 + x] = !sample || ((y - 1) / 2) * 4 + (x - 1) / 2 < samples ? 1 : 0;
        }
      return m;
    };
    expect(Array.from(resampleMask(big(8), 8, 8, 0, 0, 8, 1, 1, 0))).toEqual([1]);
    expect(Array.from(resampleMask(big(7), 8, 8, 0, 0, 8, 1, 1, 0))).toEqual([0]);
    // Half-pixel cells: cell c samples pixel floor(x0 + (c + 0.5) / 2).
    const row = parse(["#.#."]).mask;
    expect(Array.from(resampleMask(row, 4, 1, 0, 0, 0.5, 8, 1, 0))).toEqual([1, 1, 0, 0, 1, 1, 0, 0]);
    // 3-pixel cells: three samples a side, at pixels 0.5, 1.5, 2.5.
    const three = parse(["##.", "##.", "..."]).mask;
    expect(Array.from(resampleMask(three, 3, 3, 0, 0, 3, 1, 1, 0))).toEqual([0]); // 4 of 9
    three[2] = 1;
    expect(Array.from(resampleMask(three, 3, 3, 0, 0, 3, 1, 1, 0))).toEqual([1]); // 5 of 9
  });

  it("reads outside the mask as unset, on every side", () => {
    const full = new Uint8Array(9).fill(1);
    expect(show(resampleMask(full, 3, 3, -1, -1, 1, 5, 5, 0), 5)).toEqual([".....", ".###.", ".###.", ".###.", "....."]);
    expect(show(resampleMask(full, 3, 3, -2.5, 0.5, 1, 5, 1, 0), 5)).toEqual(["..###"]);
  });
});
