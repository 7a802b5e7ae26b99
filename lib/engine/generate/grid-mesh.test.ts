import { describe, expect, it } from "vitest";
import { buildGridSolid, cornerCounts, regularizeGridMask } from "./grid-mesh";
import { checkManifold, signedVolume } from "./mesh-ops";
import { mulberry32 } from "./random";

const parse = (rows: string[]): Uint8Array => Uint8Array.from(rows.join(""), (c) => (c === "#" ? 1 : 0));
const show = (mask: Uint8Array, w: number): string[] =>
  Array.from({ length: mask.length / w }, (_, y) => Array.from(mask.subarray(y * w, y * w + w), (v) => (v ? "#" : ".")).join(""));
const regularized = (rows: string[], sharedRim: boolean): string[] =>
  show(regularizeGridMask(parse(rows), rows[0]!.length, rows.length, sharedRim), rows[0]!.length);

function randomMask(gw: number, gh: number, density: number, seed: number): Uint8Array {
  const next = mulberry32(seed);
  return Uint8Array.from({ length: gw * gh }, () => (next() < density ? 1 : 0));
}

describe("cornerCounts", () => {
  it("counts the set cells around each corner, as brute force does", () => {
    for (let seed = 1; seed <= 10; seed++) {
      const gw = 1 + (seed % 6),
        gh = 1 + ((seed * 3) % 5);
      const mask = randomMask(gw, gh, 0.5, seed);
      const counts = cornerCounts(mask, gw, gh);
      expect(counts.length).toBe((gw + 1) * (gh + 1));
      for (let j = 0; j <= gh; j++)
        for (let i = 0; i <= gw; i++) {
          let n = 0;
          for (const [x, y] of [
            [i - 1, j - 1],
            [i, j - 1],
            [i - 1, j],
            [i, j],
          ])
            if (x! >= 0 && y! >= 0 && x! < gw && y! < gh && mask[y! * gw + x!]) n++;
          expect(counts[j * (gw + 1) + i]).toBe(n);
        }
    }
  });

  it("gives a 2 x 2 block 1, 2, 4 on its corners, sides and centre", () => {
    expect(Array.from(cornerCounts(parse(["##", "##"]), 2, 2))).toEqual([1, 2, 1, 2, 4, 2, 1, 2, 1]);
  });
});

describe("regularizeGridMask", () => {
  it("fills both kinds of diagonal pinch with the 2 x 2 block around the shared corner", () => {
    expect(regularized(["....", ".#..", "..#.", "...."], false)).toEqual(["....", ".##.", ".##.", "...."]);
    expect(regularized(["....", "..#.", ".#..", "...."], false)).toEqual(["....", ".##.", ".##.", "...."]);
    expect(regularized(["......", ".##...", ".##...", "...##.", "...##.", "......"], false)).toEqual([
      "......",
      ".##...",
      ".###..",
      "..###.",
      "...##.",
      "......",
    ]);
  });

  it("fills a pinch that a first fill creates, on a later pass", () => {
    // Filling the pinch at corner (1, 2) sets cell (1, 1), which pinches with cell (2, 0).
    expect(regularized(["..#.", "#...", ".#..", "...."], false)).toEqual([".##.", "###.", "##..", "...."]);
  });

  it("does not see a pinch across the grid's right edge", () => {
    expect(regularized(["..#", "...", "#.."], false)).toEqual(["..#", "...", "#.."]);
  });

  it("leaves a mask with simple outlines alone", () => {
    for (const shared of [false, true]) {
      const rows = ["......", ".###..", ".####.", "..###.", "......"];
      expect(regularized(rows, shared)).toEqual(rows);
    }
    expect(regularized([".....", ".#...", ".....", "...##", "...##"], false)).toEqual([".....", ".#...", ".....", "...##", "...##"]);
  });

  it("for a shared rim removes isolated cells and thickens one-cell necks, in the grid and along its edges", () => {
    expect(regularized([".....", ".#...", ".....", "...##", "...##"], true)).toEqual([".....", ".....", ".....", "...##", "...##"]);
    // Also in the first and last rows and columns.
    expect(regularized(["#....#", "......", "..##..", "..##..", "......", "#....#"], true)).toEqual([
      "......",
      "......",
      "..##..",
      "..##..",
      "......",
      "......",
    ]);
    expect(regularized([".....", ".....", ".###.", ".....", "....."], true)).toEqual([".....", ".###.", ".###.", ".....", "....."]);
    expect(regularized([".....", ".#...", ".#...", ".#...", "....."], true)).toEqual([".....", "##...", "##...", "##...", "....."]);
    expect(regularized(["###..", ".....", "....."], true)).toEqual(["###..", "###..", "....."]);
    expect(regularized(["#...", "#...", "#...", "...."], true)).toEqual(["##..", "##..", "##..", "...."]);
    expect(regularized(["....", "....", "..##"], true)).toEqual(["....", "..##", "..##"]);
    expect(regularized(["....", "...#", "...#"], true)).toEqual(["....", "..##", "..##"]);
  });

  it("thickens again where a thickening leaves a new neck, on a later pass", () => {
    expect(regularized(["##..", ".#.#", "...#", "#.#."], true)).toEqual(["###.", "####", "..##", "..##"]);
  });

  it("cannot thicken a neck in a grid one cell high or wide, and leaves it", () => {
    expect(regularized([".###."], true)).toEqual([".###."]);
    expect(regularized(["#", "#", ".", "."], true)).toEqual(["#", "#", ".", "."]);
    expect(regularized([".", "#", "#", "."], true)).toEqual([".", "#", "#", "."]);
  });

  it("leaves random masks with no pinch, no isolated cell and no inner side with both ends on the outline", () => {
    for (let seed = 1; seed <= 15; seed++) {
      const gw = 6 + (seed % 5),
        gh = 5 + (seed % 4);
      const before = randomMask(gw, gh, 0.45, seed);
      const mask = regularizeGridMask(before.slice(), gw, gh, true);
      // A fixed point: a second call changes nothing.
      expect(show(regularizeGridMask(mask.slice(), gw, gh, true), gw)).toEqual(show(mask, gw));
      const at = (x: number, y: number) => (x >= 0 && y >= 0 && x < gw && y < gh ? mask[y * gw + x]! : 0);
      const counts = cornerCounts(mask, gw, gh);
      const inner = (i: number, j: number) => counts[j * (gw + 1) + i] === 4;
      for (let y = 0; y < gh; y++)
        for (let x = 0; x < gw; x++) {
          if (x > 0 && y > 0) {
            const [a, b, c, d] = [at(x - 1, y - 1), at(x, y - 1), at(x - 1, y), at(x, y)];
            expect((a && d && !b && !c) || (b && c && !a && !d)).toBeFalsy();
          }
          if (!at(x, y)) continue;
          let nb = 0;
          for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (dx || dy) nb += at(x + dx, y + dy);
          expect(nb).toBeGreaterThan(0);
          if (at(x + 1, y) && x + 2 < gw + 1 && gh > 1) expect(inner(x + 1, y) || inner(x + 1, y + 1)).toBe(true);
          if (at(x, y + 1) && gw > 1) expect(inner(x, y + 1) || inner(x + 1, y + 1)).toBe(true);
        }
    }
  });
});

/** Top 2 and bottom -1 at every corner (the rim is forced to 0). */
function solid(rows: string[], options: Partial<Parameters<typeof buildGridSolid>[0]> = {}) {
  const gw = rows[0]!.length,
    gh = rows.length;
  const n = (gw + 1) * (gh + 1);
  return buildGridSolid({ mask: parse(rows), gw, gh, top: new Float32Array(n).fill(2), bottom: new Float32Array(n).fill(-1), ...options });
}

const vertex = (p: Float32Array, v: number) => [p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!];

describe("buildGridSolid", () => {
  it("makes a closed, outward pillow over a 3 x 3 block with the volume its triangles enclose", () => {
    const s = solid(["###", "###", "###"]);
    // 16 corners on top, the 4 inner ones again below; 4 triangles per cell.
    expect(s.positions.length / 3).toBe(20);
    expect(s.indices.length).toBe(9 * 4 * 3);
    expect(checkManifold(s.indices)).toEqual({ closed: true, oriented: true, boundaryEdges: 0, nonManifoldEdges: 0 });
    // Each cell's diagonal runs through an inner corner: the 4 corner cells hold 1/3 of the height,
    // the 4 side cells 1/2, the middle all of it: 13/3 per unit height, 3 units apart.
    expect(signedVolume(s.positions, s.indices)).toBeCloseTo(13, 5);
  });

  it("puts top vertices on every used corner in order, then bottom vertices under the inner ones", () => {
    const gw = 2,
      gh = 2;
    const top = Float32Array.from({ length: 9 }, (_, v) => 10 + v),
      bottom = Float32Array.from({ length: 9 }, (_, v) => -10 - v);
    const s = buildGridSolid({ mask: parse(["##", "##"]), gw, gh, top, bottom });
    const expected: number[][] = [];
    for (let j = 0; j <= 2; j++) for (let i = 0; i <= 2; i++) expected.push([i, j, i === 1 && j === 1 ? 14 : 0]);
    expected.push([1, 1, -14]);
    expect(Array.from({ length: 10 }, (_, v) => vertex(s.positions, v))).toEqual(expected);
    // The triangles on top face +z, those below -z.
    for (let t = 0; t < s.indices.length; t += 3) {
      const [a, b, c] = [
        vertex(s.positions, s.indices[t]!),
        vertex(s.positions, s.indices[t + 1]!),
        vertex(s.positions, s.indices[t + 2]!),
      ];
      const nz = (b[0]! - a[0]!) * (c[1]! - a[1]!) - (b[1]! - a[1]!) * (c[0]! - a[0]!);
      const below = a[2]! + b[2]! + c[2]! < 0;
      expect(nz).toBeCloseTo(below ? -1 : 1, 6);
    }
  });

  it("skips unused corners and gives a lone cell a flat two-sided quad (which a shared rim's regularizing removes)", () => {
    const s = solid(["...", ".#.", "..."]);
    expect(Array.from({ length: s.positions.length / 3 }, (_, v) => vertex(s.positions, v))).toEqual([
      [1, 1, 0],
      [2, 1, 0],
      [1, 2, 0],
      [2, 2, 0],
    ]);
    expect(s.indices.length).toBe(12);
    // Top and bottom share all four vertices, so the diagonal has four uses.
    expect(checkManifold(s.indices)).toEqual({ closed: false, oriented: true, boundaryEdges: 0, nonManifoldEdges: 1 });
    expect(signedVolume(s.positions, s.indices)).toBe(0);
  });

  it("gives regularized random masks closed, outward, oriented solids", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const gw = 6 + (seed % 5),
        gh = 5 + (seed % 3);
      const mask = regularizeGridMask(randomMask(gw, gh, 0.55, seed), gw, gh, true);
      const n = (gw + 1) * (gh + 1);
      const next = mulberry32(seed + 100);
      const top = Float32Array.from({ length: n }, () => 0.5 + next()),
        bottom = Float32Array.from({ length: n }, () => -0.5 - next());
      const s = buildGridSolid({ mask, gw, gh, top, bottom, rimSmoothing: 2 });
      const counts = cornerCounts(mask, gw, gh);
      const cells = mask.reduce((a, v) => a + v, 0);
      expect(s.positions.length / 3).toBe(counts.filter((c) => c > 0).length + counts.filter((c) => c === 4).length);
      expect(s.indices.length).toBe(cells * 12);
      expect(checkManifold(s.indices)).toEqual({ closed: true, oriented: true, boundaryEdges: 0, nonManifoldEdges: 0 });
      const inner = counts.filter((c) => c === 4).length;
      if (inner > 0) expect(signedVolume(s.positions, s.indices)).toBeGreaterThan(0);
    }
  });

  it("smooths the outline in the plane, each step half the vertex and a quarter of each outline neighbour", () => {
    const once = solid(["###", "###", "###"], { rimSmoothing: 1 });
    // Corner (0, 0) moves towards (1, 0) and (0, 1); a side vertex between two straight sides stays.
    expect(vertex(once.positions, 0)).toEqual([0.25, 0.25, 0]);
    expect(vertex(once.positions, 1)).toEqual([1, 0, 0]);
    expect(vertex(once.positions, 15)).toEqual([2.75, 2.75, 0]);
    expect(vertex(once.positions, 5)).toEqual([1, 1, 2]); // inner corners do not move
    const twice = solid(["###", "###", "###"], { rimSmoothing: 2 });
    // Second step: (0.25, 0.25) / 2 + ((1, 0) + (0, 1)) / 4; (1, 0) / 2 + ((0.25, 0.25) + (2, 0)) / 4.
    expect(vertex(twice.positions, 0)).toEqual([0.375, 0.375, 0]);
    expect(vertex(twice.positions, 1)).toEqual([1.0625, 0.0625, 0]);
  });

  it("moves each outline vertex of random masks towards its two neighbours along the outline", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const gw = 5 + (seed % 4),
        gh = 4 + (seed % 5);
      const mask = regularizeGridMask(randomMask(gw, gh, 0.6, seed + 40), gw, gh, true);
      const vw = gw + 1;
      const at = (x: number, y: number) => (x >= 0 && y >= 0 && x < gw && y < gh ? mask[y * gw + x]! : 0);
      // Outline sides by brute force: a cell side with a set cell on one side only.
      const rimNeighbours = (i: number, j: number): number[][] => {
        const out: number[][] = [];
        if (at(i - 1, j - 1) !== at(i - 1, j)) out.push([i - 1, j]); // side to the left
        if (at(i, j - 1) !== at(i, j)) out.push([i + 1, j]); // to the right
        if (at(i - 1, j - 1) !== at(i, j - 1)) out.push([i, j - 1]); // up
        if (at(i - 1, j) !== at(i, j)) out.push([i, j + 1]); // down
        return out;
      };
      const n = vw * (gh + 1);
      const seen: number[] = [];
      const s = buildGridSolid({
        mask,
        gw,
        gh,
        top: new Float32Array(n).fill(1),
        bottom: new Float32Array(n).fill(-1),
        rimSmoothing: 1,
        projectRim: (_, o) => seen.push(o / 2),
      });
      const counts = cornerCounts(mask, gw, gh);
      const expectedRim: number[] = [];
      let k = 0;
      for (let j = 0; j <= gh; j++)
        for (let i = 0; i <= gw; i++) {
          const c = counts[j * vw + i]!;
          if (c === 0) continue;
          const p = vertex(s.positions, k++);
          if (c === 4) {
            expect(p.slice(0, 2)).toEqual([i, j]);
            continue;
          }
          expectedRim.push(j * vw + i);
          const nb = rimNeighbours(i, j);
          expect(nb.length).toBe(2);
          expect(p[0]).toBeCloseTo(0.5 * i + 0.25 * (nb[0]![0]! + nb[1]![0]!), 6);
          expect(p[1]).toBeCloseTo(0.5 * j + 0.25 * (nb[0]![1]! + nb[1]![1]!), 6);
          expect(p[2]).toBe(0);
        }
      expect(seen).toEqual(expectedRim);
    }
  });

  it("hands every outline vertex, and only those, to projectRim after smoothing", () => {
    const seen: number[] = [];
    const s = solid(["###", "###", "###"], {
      rimSmoothing: 1,
      projectRim: (xy, o) => {
        seen.push(o / 2);
        xy[o] = xy[o]! * 2;
      },
    });
    expect(seen).toEqual([0, 1, 2, 3, 4, 7, 8, 11, 12, 13, 14, 15]);
    expect(vertex(s.positions, 0)).toEqual([0.5, 0.25, 0]);
    expect(vertex(s.positions, 2)).toEqual([4, 0, 0]);
    expect(vertex(s.positions, 6)).toEqual([2, 1, 2]);
  });
});
