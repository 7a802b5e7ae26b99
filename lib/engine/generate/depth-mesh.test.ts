import { describe, expect, it } from "vitest";
import { buildReliefSolid, type ReliefSolid } from "./depth-mesh";
import { regularizeGridMask } from "./grid-mesh";
import { euler, vertexManifold } from "./depth.test-helpers";
import { checkManifold, signedVolume } from "./mesh-ops";

/** Projected (x, y) signed area of triangle t, with positions in the grid frame. */
const planArea = (p: Float32Array, i: Uint32Array, t: number) => {
  const a = i[t]! * 3,
    b = i[t + 1]! * 3,
    c = i[t + 2]! * 3;
  return 0.5 * ((p[b]! - p[a]!) * (p[c + 1]! - p[a + 1]!) - (p[b + 1]! - p[a + 1]!) * (p[c]! - p[a]!));
};

function checkSolid(s: ReliefSolid, outlineArea: number): void {
  const { positions: p, indices: idx } = s;
  const m = checkManifold(idx);
  expect(m).toMatchObject({ closed: true, oriented: true });
  expect(vertexManifold(idx, p.length / 3)).toBe(true);
  expect(signedVolume(p, idx)).toBeGreaterThan(0);
  // Top and bottom cover the outline exactly once: no fold-overs in the plane.
  let top = 0,
    topAbs = 0,
    bottom = 0,
    bottomAbs = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const z = [p[idx[t]! * 3 + 2]!, p[idx[t + 1]! * 3 + 2]!, p[idx[t + 2]! * 3 + 2]!];
    const a = planArea(p, idx, t);
    if (z.every((v) => v === 0)) {
      bottom += a;
      bottomAbs += Math.abs(a);
    } else {
      top += a;
      topAbs += Math.abs(a);
    }
  }
  expect(top).toBeCloseTo(outlineArea, 3);
  expect(topAbs).toBeCloseTo(outlineArea, 3);
  expect(-bottom).toBeCloseTo(outlineArea, 3);
  expect(bottomAbs).toBeCloseTo(outlineArea, 3);
}

/** Heights per corner of a gw x gh grid. */
const field = (gw: number, gh: number, f: (i: number, j: number) => number) => {
  const t = new Float32Array((gw + 1) * (gh + 1));
  for (let j = 0; j <= gh; j++) for (let i = 0; i <= gw; i++) t[j * (gw + 1) + i] = f(i, j);
  return t;
};

/** Linear interpolation of the mesh's top at every grid corner inside each top triangle. */
function maxDeviation(s: ReliefSolid, top: Float32Array, gw: number): number {
  const p = s.positions,
    idx = s.indices;
  let worst = 0;
  for (let t = 0; t < s.topTriangles * 3; t += 3) {
    const [a, b, c] = [idx[t]! * 3, idx[t + 1]! * 3, idx[t + 2]! * 3];
    const x0 = Math.min(p[a]!, p[b]!, p[c]!),
      x1 = Math.max(p[a]!, p[b]!, p[c]!);
    const y0 = Math.min(p[a + 1]!, p[b + 1]!, p[c + 1]!),
      y1 = Math.max(p[a + 1]!, p[b + 1]!, p[c + 1]!);
    const det = (p[b + 1]! - p[c + 1]!) * (p[a]! - p[c]!) + (p[c]! - p[b]!) * (p[a + 1]! - p[c + 1]!);
    for (let y = Math.ceil(y0); y <= y1; y++) {
      for (let x = Math.ceil(x0); x <= x1; x++) {
        const l1 = ((p[b + 1]! - p[c + 1]!) * (x - p[c]!) + (p[c]! - p[b]!) * (y - p[c + 1]!)) / det;
        const l2 = ((p[c + 1]! - p[a + 1]!) * (x - p[c]!) + (p[a]! - p[c]!) * (y - p[c + 1]!)) / det;
        const l3 = 1 - l1 - l2;
        if (l1 < -1e-9 || l2 < -1e-9 || l3 < -1e-9) continue;
        const z = l1 * p[a + 2]! + l2 * p[b + 2]! + l3 * p[c + 2]!;
        worst = Math.max(worst, Math.abs(z - top[y * (gw + 1) + x]!));
      }
    }
  }
  return worst;
}

describe("buildReliefSolid", () => {
  it("a flat square plate is a handful of triangles, closed", () => {
    const gw = 100,
      gh = 60;
    const s = buildReliefSolid({ mask: new Uint8Array(gw * gh).fill(1), gw, gh, top: field(gw, gh, () => 2), maxError: 0.01 });
    checkSolid(s, gw * gh);
    // The outline keeps unit steps (2 * (100 + 60) sides -> 640 wall triangles); the two
    // faces are far below the 2 * 6000 * 2 triangles of a plain grid.
    expect(s.indices.length / 3 - 4 * (gw + gh)).toBeLessThan(0.15 * 4 * gw * gh);
    expect(s.topTriangles).toBeLessThan(0.1 * 2 * gw * gh);
  });

  it("keeps every grid height within maxError and is denser where there is detail", () => {
    const gw = 200,
      gh = 150;
    const top = field(gw, gh, (i, j) => 1 + (i > 100 ? 0.5 * Math.sin(i / 3) * Math.cos(j / 4) : 0.0001 * i));
    for (const maxError of [0.002, 0.02, 0.1]) {
      const s = buildReliefSolid({ mask: new Uint8Array(gw * gh).fill(1), gw, gh, top, maxError });
      checkSolid(s, gw * gh);
      expect(maxDeviation(s, top, gw)).toBeLessThanOrEqual(maxError + 1e-5);
      // The (planar) left half needs few triangles: mostly the full-resolution outline,
      // under 10% of its 2 * 100 * 150 grid triangles.
      let left = 0;
      for (let t = 0; t < s.topTriangles * 3; t += 3) if (s.positions[s.indices[t]! * 3]! < 95) left++;
      expect(left).toBeLessThan(0.1 * 2 * 100 * gh);
      expect(s.topTriangles - left).toBeGreaterThan(left);
    }
    const full = buildReliefSolid({ mask: new Uint8Array(gw * gh).fill(1), gw, gh, top, maxError: 0 });
    expect(maxDeviation(full, top, gw)).toBeLessThan(1e-6);
  });

  it("respects the triangle budget by raising the error", () => {
    const gw = 256,
      gh = 256;
    let seed = 1;
    const noise = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const top = field(gw, gh, () => 1 + noise());
    const s = buildReliefSolid({ mask: new Uint8Array(gw * gh).fill(1), gw, gh, top, maxError: 0.001, maxTriangles: 20_000 });
    checkSolid(s, gw * gh);
    expect(s.topTriangles).toBeLessThanOrEqual(20_000);
    expect(s.topTriangles).toBeGreaterThan(10_000);
    expect(s.error).toBeGreaterThan(0.001);
    expect(maxDeviation(s, top, gw)).toBeLessThanOrEqual(s.error + 1e-5);
  });

  it("masks with holes, islands and diagonal pinches stay closed two-manifold", () => {
    const gw = 120,
      gh = 90;
    const mask = new Uint8Array(gw * gh);
    for (let y = 0; y < gh; y++) {
      for (let x = 0; x < gw; x++) {
        const r = Math.hypot(x + 0.5 - 45, y + 0.5 - 45);
        const ring = r < 40 && r > 15; // a ring (one hole)
        const island = x > 95 && x < 110 && y > 20 && y < 40; // a separate island
        const pinch = (x === 100 && y === 60) || (x === 101 && y === 61); // diagonal contact
        mask[y * gw + x] = ring || island || pinch ? 1 : 0;
      }
    }
    regularizeGridMask(mask, gw, gh, false);
    let area = 0;
    for (const v of mask) area += v;
    const top = field(gw, gh, (i, j) => 1 + 0.3 * Math.sin(i / 5) + 0.2 * Math.cos(j / 7));
    const s = buildReliefSolid({ mask, gw, gh, top, maxError: 0.01, rimSmoothing: 2 });
    checkSolid(s, areaAfterSmoothing(s));
    expect(area).toBeGreaterThan(0);
    // ring (torus: 0) + island (sphere: 2) + filled pinch square (sphere: 2)
    expect(euler(s.indices)).toBe(4);
  });
});

/** The outline area after rim smoothing: the bottom's projected area (checked against the top). */
function areaAfterSmoothing(s: ReliefSolid): number {
  let a = 0;
  for (let t = 0; t < s.indices.length; t += 3) {
    const z = [0, 1, 2].map((e) => s.positions[s.indices[t + e]! * 3 + 2]!);
    if (z.every((v) => v === 0)) a -= planArea(s.positions, s.indices, t);
  }
  return a;
}

/** Every triangle as "x,y,z x,y,z x,y,z", started at its smallest corner (winding kept), sorted. */
function triangleList(s: ReliefSolid, from = 0, to = s.indices.length / 3): string[] {
  const out: string[] = [];
  for (let t = from; t < to; t++)
    out.push(
      [0, 1, 2].map((e) => Array.from(s.positions.subarray(s.indices[t * 3 + e]! * 3, s.indices[t * 3 + e]! * 3 + 3)).join(",")).join(" "),
    );
  return canonical(out);
}

/** Triangles written "a b c" started at their smallest corner (the same triangle, same winding), sorted. */
function canonical(list: string[]): string[] {
  return list
    .map((t) => {
      const c = t.split(" ");
      const k = c.indexOf([...c].sort()[0]!);
      return [c[k], c[(k + 1) % 3], c[(k + 2) % 3]].join(" ");
    })
    .sort();
}

/** Closed, consistently oriented, every vertex a single fan, enclosing `volume`. */
function expectClosedSolid(s: ReliefSolid, volume: number): void {
  expect(checkManifold(s.indices)).toMatchObject({ closed: true, oriented: true });
  expect(vertexManifold(s.indices, s.positions.length / 3)).toBe(true);
  expect(signedVolume(s.positions, s.indices)).toBeCloseTo(volume, 5);
}

/** The top vertex at grid corner (x, y), if the top surface uses it. */
function topVertex(s: ReliefSolid, x: number, y: number): number | undefined {
  const used = new Set(s.indices.subarray(0, s.topTriangles * 3));
  for (const v of used) if (s.positions[v * 3] === x && s.positions[v * 3 + 1] === y) return s.positions[v * 3 + 2]!;
  return undefined;
}

const full = (gw: number, gh: number) => new Uint8Array(gw * gh).fill(1);

describe("buildReliefSolid on masks worked by hand", () => {
  it("one cell is a 1 x 1 x 2 box: 2 triangles on top, 2 below, 2 per wall, all facing out", () => {
    const s = buildReliefSolid({ mask: full(1, 1), gw: 1, gh: 1, top: field(1, 1, () => 2), maxError: 0.01 });
    // Grid frame: x = column, y = row, z = height. The top's diagonal runs (0,0)-(1,1) (the
    // tree's own), counter-clockwise seen from +z; the bottom is its mirror at z = 0; each
    // outline side p -> q (counter-clockwise: (0,0) (1,0) (1,1) (0,1)) gets (p top, p bottom,
    // q bottom) and (p top, q bottom, q top).
    expect(triangleList(s)).toEqual(
      canonical([
        "0,0,2 1,0,2 1,1,2",
        "0,0,2 1,1,2 0,1,2",
        "0,0,0 1,1,0 1,0,0",
        "0,0,0 0,1,0 1,1,0",
        "0,0,2 0,0,0 1,0,0",
        "0,0,2 1,0,0 1,0,2",
        "1,0,2 1,0,0 1,1,0",
        "1,0,2 1,1,0 1,1,2",
        "1,1,2 1,1,0 0,1,0",
        "0,1,0 0,1,2 1,1,2",
        "0,1,2 0,1,0 0,0,0",
        "0,0,0 0,0,2 0,1,2",
      ]),
    );
    expect(s.positions.length).toBe(8 * 3);
    expect(s.topTriangles).toBe(2);
    expect(s.error).toBe(0.01);
    expectClosedSolid(s, 2);
  });

  it("a 2 x 1 plate keeps the tree's diagonals (through (1,1)) where no outline ear is at stake; the bottom mirrors the top", () => {
    const s = buildReliefSolid({ mask: full(2, 1), gw: 2, gh: 1, top: field(2, 1, () => 1), maxError: 0.01 });
    // All six corners are on the outline, so either diagonal of either cell makes two "ears":
    // the tie keeps the tree's diagonals, (0,0)-(1,1) and (2,0)-(1,1).
    const topTris = ["0,0,1 1,0,1 1,1,1", "0,0,1 1,1,1 0,1,1", "1,0,1 2,0,1 1,1,1", "2,0,1 2,1,1 1,1,1"];
    expect(s.topTriangles).toBe(4);
    expect(triangleList(s, 0, 4)).toEqual(canonical(topTris));
    // The bottom: the same triangles at z = 0, wound the other way (facing -z).
    const mirrored = topTris.map((t) => t.replaceAll(",1 ", ",0 ").replace(/,1$/, ",0").split(" ").reverse().join(" "));
    expect(triangleList(s, 4, 8)).toEqual(canonical(mirrored));
    // 6 outline sides, 2 wall triangles each; 6 corners top and bottom.
    expect(s.indices.length / 3).toBe(8 + 12);
    expect(s.positions.length / 3).toBe(12);
    expectClosedSolid(s, 2);
  });

  it("a full-resolution 3 x 2 plate turns each corner cell's diagonal away from the outline (no ears)", () => {
    // Corner (2,1) raised by 0.5 so that maxError 0 splits every cell: 12 top triangles. The
    // corner cells have three outline corners; the diagonal through the fourth (inner) corner
    // leaves no triangle with all three corners on the outline.
    const top = field(3, 2, (i, j) => (i === 2 && j === 1 ? 1.5 : 1));
    const s = buildReliefSolid({ mask: full(3, 2), gw: 3, gh: 2, top, maxError: 0 });
    expect(s.topTriangles).toBe(12);
    const onOutline = (x: number, y: number) => x === 0 || x === 3 || y === 0 || y === 2;
    for (let t = 0; t < s.topTriangles * 3; t += 3) {
      const corners = [0, 1, 2].map((e) => s.indices[t + e]! * 3);
      expect(corners.every((v) => onOutline(s.positions[v]!, s.positions[v + 1]!))).toBe(false);
    }
    // The volume: 6 cells at height 1 plus a cone of height 0.5 over the triangles round (2,1):
    // all of corner cells (2,0) and (2,1) (their diagonals meet at (2,1)) and half of cells
    // (1,0) and (1,1) (the tree's diagonals there, (2,0)-(1,1) and (1,1)-(2,2), pass it by):
    // area 3, volume 0.5 * 3 / 3.
    expectClosedSolid(s, 6 + (0.5 * 3) / 3);
  });

  it("a 3 x 3 ring: a hole walled inwards, a torus of 64 triangles", () => {
    const mask = Uint8Array.from([1, 1, 1, 1, 0, 1, 1, 1, 1]);
    const s = buildReliefSolid({ mask, gw: 3, gh: 3, top: field(3, 3, () => 1), maxError: 0.01 });
    // All 16 corners are on the outline (12 outside, 4 round the hole): 8 cells x 2 triangles
    // on top and below, 12 + 4 sides x 2 wall triangles.
    expect(s.topTriangles).toBe(16);
    expect(s.indices.length / 3).toBe(16 + 16 + 32);
    expect(s.positions.length / 3).toBe(32);
    expect(euler(s.indices)).toBe(0);
    // Nothing over the hole.
    for (let t = 0; t < s.indices.length; t += 3) {
      const cx = (s.positions[s.indices[t]! * 3]! + s.positions[s.indices[t + 1]! * 3]! + s.positions[s.indices[t + 2]! * 3]!) / 3;
      const cy =
        (s.positions[s.indices[t]! * 3 + 1]! + s.positions[s.indices[t + 1]! * 3 + 1]! + s.positions[s.indices[t + 2]! * 3 + 1]!) / 3;
      expect(cx > 1 && cx < 2 && cy > 1 && cy < 2).toBe(false);
    }
    expectClosedSolid(s, 8);
  });

  // An 8 x 8 plate fills its 9 x 9-corner tile. Only the 32 outline corners are forced, and
  // their ancestors: the tile centre, the 4 + 12 midpoints of the 4 x 4 level, and the 12
  // 2 x 2-square centres of the outer ring (each has an outline corner among its children). On a
  // flat top the other 28 midpoints (24 inner edge midpoints, the 4 inner square centres (3,3),
  // (5,3), (3,5), (5,5)) are merged: the 4 inner 2 x 2 squares are 2 triangles each, the 12
  // ring squares 4 triangles round their centre with the outline sides split once more:
  // 4 corner squares x 6 + 8 side squares x 5 + 4 x 2 = 72 triangles instead of 128.
  const plate = (f: (i: number, j: number) => number, maxError = 0.01, extra: Partial<Parameters<typeof buildReliefSolid>[0]> = {}) =>
    buildReliefSolid({ mask: full(8, 8), gw: 8, gh: 8, top: field(8, 8, f), maxError, ...extra });

  it("a flat 8 x 8 plate merges its inside into 72 top triangles", () => {
    const s = plate(() => 1.5);
    expect(s.topTriangles).toBe(72);
    // The bottom is refined the same way; 32 outline sides x 2 walls.
    expect(s.indices.length / 3).toBe(72 + 72 + 64);
    // Vertices: the 4 tile corners and 49 split midpoints, top and bottom.
    expect(s.positions.length / 3).toBe(2 * 53);
    expect(s.error).toBe(0.01);
    for (let v = 0; v < s.positions.length; v += 3) {
      expect([0, 1.5]).toContain(s.positions[v + 2]);
      expect(s.positions[v]).toBeGreaterThanOrEqual(0);
      expect(s.positions[v]).toBeLessThanOrEqual(8);
      expect(s.positions[v + 1]).toBeGreaterThanOrEqual(0);
      expect(s.positions[v + 1]).toBeLessThanOrEqual(8);
    }
    expect(topVertex(s, 3, 3)).toBeUndefined();
    expect(topVertex(s, 1, 1)).toBe(1.5);
    expectClosedSolid(s, 64 * 1.5);
  });

  it("a bump on an inner square centre splits that square once it exceeds maxError (strictly)", () => {
    // (3,3) raised by h: it lies h off the diagonal (2,2)-(4,4) it would be merged into.
    for (const [h, maxError, tris] of [
      [0.5, 0.25, 74],
      [0.5, 0.5, 72],
      [0.5, 0.75, 72],
    ] as const) {
      const s = plate((i, j) => (i === 3 && j === 3 ? 1 + h : 1), maxError);
      expect(s.topTriangles).toBe(tris);
      expect(topVertex(s, 3, 3)).toBe(tris === 74 ? 1.5 : undefined);
      // The flat bottom keeps only the forced splits: 72 triangles whatever the top; 64 walls.
      expect(s.indices.length / 3).toBe(tris + 72 + 64);
      expect(checkManifold(s.indices)).toMatchObject({ closed: true, oriented: true });
    }
  });

  it("a bump on an inner edge midpoint also splits both squares beside it (no T-junction)", () => {
    // (4,3) raised by 0.5 lies on the edge (4,2)-(4,4) shared by the squares centred at (3,3)
    // and (5,3): splitting it needs both centres split first, whose errors therefore include
    // its 0.5. Each square becomes 4 triangles, and the two beside the edge 2 each: 10 where
    // there were 4.
    const s = plate((i, j) => (i === 4 && j === 3 ? 1.5 : 1), 0.1);
    expect(s.topTriangles).toBe(78);
    expect(topVertex(s, 4, 3)).toBe(1.5);
    expect(topVertex(s, 3, 3)).toBe(1);
    expect(topVertex(s, 5, 3)).toBe(1);
    expect(
      maxDeviation(
        s,
        field(8, 8, (i, j) => (i === 4 && j === 3 ? 1.5 : 1)),
        8,
      ),
    ).toBe(0);
    // The bump: a pyramid of height 0.5 over the 4 triangles round (4,3), 2 of area 1/2 and 2
    // of area 1/2: volume 64 + 1/3 * 0.5 * 2.
    expectClosedSolid(s, 64 + (0.5 * 2) / 3);
  });

  it("the error rises no further than the largest error kept, and a split at exactly maxError is no split", () => {
    // Bumps of 0.5 at (3,3) and 0.4995 at (5,5): the smaller lies in the last log step below the
    // larger, so dropping it raises the error to the larger's, 0.5.
    const f = (i: number, j: number) => (i === 3 && j === 3 ? 1.5 : i === 5 && j === 5 ? 1.4995 : 1);
    const s = plate(f, 0.01, { maxTriangles: 74 });
    expect(s.topTriangles).toBe(74);
    expect(topVertex(s, 5, 5)).toBeUndefined();
    expect(s.error).toBeCloseTo(0.5, 6);
    // maxError 0.5 with a 0.5 bump: 72 triangles, which a budget of 72 fits as it is.
    const atLimit = plate((i, j) => (i === 3 && j === 3 ? 1.5 : 1), 0.5, { maxTriangles: 72 });
    expect(atLimit.topTriangles).toBe(72);
    expect(atLimit.error).toBe(0.5);
  });

  it("a plate taller than wide takes every row of heights", () => {
    // 1 x 2 cells, heights 1, 2, 3 by row: linear in y, so the volume is the mean height 2
    // times the area 2, whatever the diagonals.
    const s = buildReliefSolid({ mask: full(1, 2), gw: 1, gh: 2, top: field(1, 2, (_, j) => 1 + j), maxError: 0 });
    expect(s.topTriangles).toBe(4);
    expect(topVertex(s, 1, 2)).toBe(3);
    expectClosedSolid(s, 4);
  });

  it("keep forces a corner into the top", () => {
    const s = plate(() => 1, 0.01, { keep: [3 * 9 + 3] });
    expect(s.topTriangles).toBe(74);
    expect(topVertex(s, 3, 3)).toBe(1);
    // Indices outside the (gw + 1) x (gh + 1) corners are ignored.
    expect(plate(() => 1, 0.01, { keep: [-1, 81, 1000] }).topTriangles).toBe(72);
  });

  it("maxTriangles raises the error just enough: to one log step above the smallest split it drops", () => {
    // Bumps of 0.5 at (3,3) and 0.25 at (5,5): 72 + 2 + 2 = 76 triangles at maxError 0.01.
    const f = (i: number, j: number) => (i === 3 && j === 3 ? 1.5 : i === 5 && j === 5 ? 1.25 : 1);
    expect(plate(f).topTriangles).toBe(76);
    const fits = plate(f, 0.01, { maxTriangles: 76 });
    expect(fits.topTriangles).toBe(76);
    expect(fits.error).toBe(0.01);
    // One fewer: the 0.25 bump goes. The thresholds are a log grid of 1024 steps from maxError
    // to the largest finite error (0.5): the error is the first above 0.25.
    const tight = plate(f, 0.01, { maxTriangles: 75 });
    expect(tight.topTriangles).toBe(74);
    expect(topVertex(tight, 5, 5)).toBeUndefined();
    expect(topVertex(tight, 3, 3)).toBe(1.5);
    expect(tight.error).toBeGreaterThan(0.25);
    expect(tight.error).toBeLessThanOrEqual(0.25 * 50 ** (1 / 1024));
    // A budget of 74 is met by the same threshold (not one more step).
    const exact = plate(f, 0.01, { maxTriangles: 74 });
    expect(exact.topTriangles).toBe(74);
    expect(exact.error).toBe(tight.error);
    // Fewer than the forced outline allows: only forced splits remain, and the error reported
    // covers the 0.5 bump.
    for (const budget of [73, 10]) {
      const forced = plate(f, 0.01, { maxTriangles: budget });
      expect(forced.topTriangles).toBe(72);
      expect(forced.error).toBeGreaterThanOrEqual(0.5);
    }
  });

  it("keep maps a corner index of the (gw + 1)-wide grid into a larger tile", () => {
    // 6 x 6 cells in an 8 x 8 tile: corner (3,3) is index 3 * 7 + 3 = 24. Merged on a flat
    // top; kept, it splits its 2 x 2 square into 4 (2 more triangles).
    const at = (keep?: number[]) => buildReliefSolid({ mask: full(6, 6), gw: 6, gh: 6, top: field(6, 6, () => 1), maxError: 0.01, keep });
    const merged = at(),
      kept = at([24]);
    expect(topVertex(merged, 3, 3)).toBeUndefined();
    expect(topVertex(kept, 3, 3)).toBe(1);
    expect(kept.topTriangles).toBe(merged.topTriangles + 2);
    expectClosedSolid(kept, 36);
  });

  it("a budget the top fits exactly keeps maxError also when cells are left out, one fewer raises it", () => {
    // The 8 x 8 plate without its top-right 2 x 2 block, (3,3) raised by 0.5: the leaves in the
    // notch must not count against the budget (on the flat notch they are the same at every
    // threshold).
    const mask = full(8, 8);
    for (const [x, y] of [
      [6, 0],
      [7, 0],
      [6, 1],
      [7, 1],
    ])
      mask[y! * 8 + x!] = 0;
    const top = field(8, 8, (i, j) => (i === 3 && j === 3 ? 1.5 : 1));
    const free = buildReliefSolid({ mask, gw: 8, gh: 8, top, maxError: 0.01 });
    // 60 cells at height 1 and a cone of height 0.5 over the 2 x 2 square split round (3,3).
    expectClosedSolid(free, 60 + (0.5 * 4) / 3);
    expect(topVertex(free, 3, 3)).toBe(1.5);
    const fits = buildReliefSolid({ mask, gw: 8, gh: 8, top, maxError: 0.01, maxTriangles: free.topTriangles });
    expect(fits.error).toBe(0.01);
    expect(fits.topTriangles).toBe(free.topTriangles);
    const tight = buildReliefSolid({ mask, gw: 8, gh: 8, top, maxError: 0.01, maxTriangles: free.topTriangles - 1 });
    expect(tight.topTriangles).toBe(free.topTriangles - 2);
    expect(topVertex(tight, 3, 3)).toBeUndefined();
    expect(tight.error).toBeGreaterThanOrEqual(0.5);
  });
});

describe("buildReliefSolid outline smoothing and projection", () => {
  it("a corner pulled back once stays there while another needs a second halving", () => {
    // 2 x 1 plate: (0,0) sent to (2,2) needs two halvings (to (0.5, 0.5)). (2,1) sent to
    // (1.25, 0.25) turns (2,0) (2,1) (1,1) over (twice the area: 1 + dx + dy = -0.5); once
    // halved, (1.625, 0.625), it keeps 0.25 and is left there in the second round. Top area:
    // 1/2 (cell 0) + 1/2 + 1/8 (cell 1).
    const s = buildReliefSolid({
      mask: full(2, 1),
      gw: 2,
      gh: 1,
      top: field(2, 1, () => 1),
      maxError: 0.01,
      projectRim: (xy, o) => {
        if (xy[o] === 0 && xy[o + 1] === 0) xy[o] = xy[o + 1] = 2;
        else if (xy[o] === 2 && xy[o + 1] === 1) [xy[o], xy[o + 1]] = [1.25, 0.25];
      },
    });
    const plan1: string[] = [];
    for (let v = 0; v < s.positions.length; v += 3) if (s.positions[v + 2] === 1) plan1.push(`${s.positions[v]},${s.positions[v + 1]}`);
    expect(plan1.sort()).toEqual(["0,1", "0.5,0.5", "1,0", "1,1", "1.625,0.625", "2,0"]);
    expectClosedSolid(s, 0.5 + 0.5 + 0.125);
  });

  const cell = (extra: Partial<Parameters<typeof buildReliefSolid>[0]>) =>
    buildReliefSolid({ mask: full(1, 1), gw: 1, gh: 1, top: field(1, 1, () => 2), maxError: 0.01, ...extra });
  /** The (x, y) of every vertex at height z, as sorted "x,y" strings. */
  const plan = (s: ReliefSolid, z: number) => {
    const out: string[] = [];
    for (let v = 0; v < s.positions.length; v += 3) if (s.positions[v + 2] === z) out.push(`${s.positions[v]},${s.positions[v + 1]}`);
    return out.sort();
  };

  it("each smoothing pass moves an outline corner to 1/2 itself + 1/4 each neighbour, top and bottom alike", () => {
    // Square (0,0) (1,0) (1,1) (0,1): (0,0) -> 0.5 (0,0) + 0.25 ((0,1) + (1,0)) = (0.25, 0.25),
    // and so on: the square [0.25, 0.75]^2; a second pass: [0.375, 0.625]^2.
    const once = cell({ rimSmoothing: 1 });
    expect(plan(once, 2)).toEqual(["0.25,0.25", "0.25,0.75", "0.75,0.25", "0.75,0.75"]);
    expect(plan(once, 0)).toEqual(plan(once, 2));
    expectClosedSolid(once, 0.5 * 0.5 * 2);
    const twice = cell({ rimSmoothing: 2 });
    expect(plan(twice, 2)).toEqual(["0.375,0.375", "0.375,0.625", "0.625,0.375", "0.625,0.625"]);
    expectClosedSolid(twice, 0.25 * 0.25 * 2);
  });

  it("smoothing follows the outline: a 2 x 1 plate becomes a hexagon", () => {
    // (1,0) and (1,1) lie between two neighbours on a straight side: they stay. (0,0) ->
    // (0.25, 0.25), (2,0) -> 0.5 (2,0) + 0.25 ((1,0) + (2,1)) = (1.75, 0.25), etc. Area: the
    // rectangle [0.25, 1.75] x [0.25, 0.75] (0.75) and two triangles of base 1.5 and height
    // 0.25 (0.1875 each): 1.125.
    const s = buildReliefSolid({ mask: full(2, 1), gw: 2, gh: 1, top: field(2, 1, () => 1), maxError: 0.01, rimSmoothing: 1 });
    expect(plan(s, 1)).toEqual(["0.25,0.25", "0.25,0.75", "1,0", "1,1", "1.75,0.25", "1.75,0.75"]);
    expectClosedSolid(s, 1.125);
  });

  it("projectRim moves outline corners after smoothing", () => {
    // Doubled about the cell centre: [-0.5, 1.5]^2, volume 4 * 2.
    const double = (xy: Float32Array, o: number) => {
      xy[o] = 2 * xy[o]! - 0.5;
      xy[o + 1] = 2 * xy[o + 1]! - 0.5;
    };
    const s = cell({ projectRim: double });
    expect(plan(s, 2)).toEqual(["-0.5,-0.5", "-0.5,1.5", "1.5,-0.5", "1.5,1.5"]);
    expectClosedSolid(s, 8);
    // Smoothed to [0.25, 0.75]^2 first, then doubled: back to the unit square.
    const both = cell({ rimSmoothing: 1, projectRim: double });
    expect(plan(both, 2)).toEqual(["0,0", "0,1", "1,0", "1,1"]);
    expectClosedSolid(both, 2);
  });

  it("a move that folds a triangle over is halved until the triangle keeps 2% of its area", () => {
    // Corner (0,0) sent to (t, t): both triangles of the cell, (0,0) (1,0) (1,1) and (0,0)
    // (1,1) (0,1), keep 1 - t of their area. t = 2 and t = 1 fail; t = 0.5 passes.
    const to = (t: number) => (xy: Float32Array, o: number) => {
      if (xy[o] === 0 && xy[o + 1] === 0) xy[o] = xy[o + 1] = t;
    };
    const s = cell({ projectRim: to(2) });
    expect(plan(s, 2)).toEqual(["0,1", "0.5,0.5", "1,0", "1,1"]);
    expect(plan(s, 0)).toEqual(plan(s, 2));
    expectClosedSolid(s, 0.5 * 2);
    // t = 0.97 keeps 3%: allowed; t = 0.99 keeps 1%: halved to 0.495.
    expect(plan(cell({ projectRim: to(0.97) }), 2)).toContain(`${Math.fround(0.97)},${Math.fround(0.97)}`);
    expect(plan(cell({ projectRim: to(0.99) }), 2)).toContain(`${Math.fround(0.495)},${Math.fround(0.495)}`);
    // t = 16: 8, 4, 2, 1 fold; the fifth halving, 0.5, holds.
    expect(plan(cell({ projectRim: to(16) }), 2)).toContain("0.5,0.5");
    // t = 60: halved five times (1.875 still folds), then dropped: back on the grid.
    const far = cell({ projectRim: to(60) });
    expect(plan(far, 2)).toEqual(["0,0", "0,1", "1,0", "1,1"]);
    expectClosedSolid(far, 2);
  });

  it("only the corners of failing triangles are pulled back", () => {
    // 2 x 1 plate: (0,0) sent to (2,2) folds cell (0,0) and is pulled back to (0.5, 0.5);
    // (2,0) sent to (2.5, 0) folds nothing and stays. Top area: cell (0,0) 2 x 1/4, cell
    // (1,0) (diagonal (2,0)-(1,1)): (1,0) (2.5,0) (1,1) 3/4 and (2.5,0) (2,1) (1,1) 1/2.
    const s = buildReliefSolid({
      mask: full(2, 1),
      gw: 2,
      gh: 1,
      top: field(2, 1, () => 1),
      maxError: 0.01,
      projectRim: (xy, o) => {
        if (xy[o] === 0 && xy[o + 1] === 0) xy[o] = xy[o + 1] = 2;
        else if (xy[o] === 2 && xy[o + 1] === 0) xy[o] = 2.5;
      },
    });
    expect(plan(s, 1)).toEqual(["0,1", "0.5,0.5", "1,0", "1,1", "2,1", "2.5,0"]);
    expectClosedSolid(s, 0.5 + 0.75 + 0.5);
  });
});
