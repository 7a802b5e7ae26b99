// Exact values of depth.ts's relief mesh (reliefScene) on hand-built 4x2..12x8 depth maps:
// heights, bounds, volumes, circle crops, masks and thin strips; every figure is derived in a
// comment. The image stages are pinned in depth-exact.test.ts.
import { describe, expect, it } from "vitest";
import { type DepthMap, type ReliefOptions, reliefScene } from "./depth";
import type { MeshPart } from "@/lib/engine/mesh/types";
import { euler, vertexManifold } from "./depth.test-helpers";
import { checkManifold, meshBounds, signedVolume } from "./mesh-ops";

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
