// split-general's axes, area profiles and neck cuts pinned exactly on hand-built meshes: a
// triangle, a square pyramid, an octahedron, unit-voxel boxes and hand-written area profiles.
// Crease cuts and the recursive split are pinned in split-general-cuts-exact.test.ts.
import { describe, expect, it } from "vitest";
import { box, uvSphere } from "./generate.test-helpers";
import { type Profile, type Vec3, areaProfile, bestNeckCut, findNeck, principalAxes } from "./split-general";
import { boxCells, dumbbell, mesh, pyramid, voxels } from "./split-general.test-helpers";

describe("principalAxes", () => {
  it("no triangles: origin and the world axes", () => {
    expect(principalAxes(mesh([[1, 2, 3]], []))).toEqual({
      centroid: [0, 0, 0],
      axes: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    });
  });

  it("one triangle (0,0) (2,0) (0,1) moved by (1,-2,3): centroid, eigenvectors of its covariance", () => {
    const r = principalAxes(
      mesh(
        [
          [1, -2, 3],
          [3, -2, 3],
          [1, -1, 3],
        ],
        [0, 1, 2],
      ),
    );
    // Centroid = vertex mean (5/3, -5/3, 3).
    expect(r.centroid[0]).toBeCloseTo(5 / 3, 12);
    expect(r.centroid[1]).toBeCloseTo(-5 / 3, 12);
    expect(r.centroid[2]).toBeCloseTo(3, 12);
    // E[x x^T] = (sum v v^T + s s^T) / 12 on the untranslated triangle: var x = 2/3 - 4/9 = 4/18,
    // var y = 1/6 - 1/9 = 1/18, cov xy = 1/6 - 2/9 = -1/18; z flat. One Jacobi rotation of
    // [[4, -1], [-1, 1]]: theta = (1 - 4) / (2 * -1) = 1.5, t = 1 / (1.5 + sqrt(3.25)) = (sqrt 13 - 3) / 2,
    // columns (cs, -sn) (eigenvalue (5 + sqrt 13) / 36) and (sn, cs) ((5 - sqrt 13) / 36), then z (0).
    const t = (Math.sqrt(13) - 3) / 2,
      cs = 1 / Math.sqrt(1 + t * t),
      sn = t * cs;
    const want = [
      [cs, -sn, 0],
      [sn, cs, 0],
      [0, 0, 1],
    ];
    for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) expect(r.axes[i]![k]).toBeCloseTo(want[i]![k]!, 9);
  });

  it("triangle (0,0) (3,1) (1,3), symmetric in x = y: equal diagonals, a 45 degree turn with t = +1", () => {
    // var x = var y = 26/12 - 16/9 = 14/36, cov xy = 22/12 - 16/9 = 2/36: eigenvalues 16/36 on
    // (1, 1), 12/36 on (1, -1). theta = 0 exactly, t = 1, cs = sn = 1/sqrt 2: columns p (cs, -sn)
    // and q (sn, cs); q has the larger eigenvalue.
    const r = principalAxes(
      mesh(
        [
          [0, 0, 0],
          [3, 1, 0],
          [1, 3, 0],
        ],
        [0, 1, 2],
      ),
    );
    const h = Math.SQRT1_2;
    const want = [
      [h, h, 0],
      [h, -h, 0],
      [0, 0, 1],
    ];
    for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) expect(r.axes[i]![k]).toBeCloseTo(want[i]![k]!, 12);
  });

  it("triangles weigh by area: centroid of a 0.5 and an 8 triangle", () => {
    // (0.5 (1/3, 1/3) + 8 (34/3, 4/3)) / 8.5 = (545/51, 65/51).
    const r = principalAxes(
      mesh(
        [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
          [10, 0, 0],
          [14, 0, 0],
          [10, 4, 0],
        ],
        [0, 1, 2, 3, 4, 5],
      ),
    );
    expect(r.centroid[0]).toBeCloseTo(545 / 51, 9);
    expect(r.centroid[1]).toBeCloseTo(65 / 51, 9);
    expect(r.centroid[2]).toBe(0);
  });

  it("a 4 x 2 x 1 box at (5, 6, 7): centre, axes x, y, z by extent", () => {
    const r = principalAxes(voxels(boxCells(0, 4, 0, 2, 0, 1), [5, 6, 7]));
    expect(r.centroid.map((x) => +x.toFixed(9) + 0)).toEqual([7, 7, 7.5]);
    const want = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) expect(r.axes[i]![k]).toBeCloseTo(want[i]![k]!, 9);
  });

  it("a 1 x 4 x 2 box: the order follows the extents, not the world axes", () => {
    const r = principalAxes(voxels(boxCells(0, 1, 0, 4, 0, 2)));
    const want = [
      [0, 1, 0],
      [0, 0, 1],
      [1, 0, 0],
    ];
    for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) expect(Math.abs(r.axes[i]![k]!)).toBeCloseTo(want[i]![k]!, 9);
  });
});

/** Octahedron: apexes (0,0,0) and (0,0,2), equator (+-1, 0, 1) (0, +-1, 1). */
const octahedron = mesh(
  [
    [0, 0, 0],
    [1, 0, 1],
    [0, 1, 1],
    [-1, 0, 1],
    [0, -1, 1],
    [0, 0, 2],
  ],
  // Lower faces end with their equator edge (both ends on t = 1), so a misread of it is not overwritten.
  [1, 2, 5, 2, 3, 5, 3, 4, 5, 4, 1, 5, 1, 0, 2, 2, 0, 3, 3, 0, 4, 4, 0, 1],
);
const arr = (a: Float64Array, digits = 12) => Array.from(a, (x) => +x.toFixed(digits));

describe("areaProfile", () => {
  it("pyramid along z, 4 slices: t at slice centres, area (2 - t)^2, perimeter 4 (2 - t)", () => {
    const pr = areaProfile(pyramid, [0, 0, 1], 4, [0, 0, 0.5]);
    expect(pr.dt).toBe(0.5);
    expect(Array.from(pr.t)).toEqual([0.25, 0.75, 1.25, 1.75]);
    expect(arr(pr.area)).toEqual([3.0625, 1.5625, 0.5625, 0.0625]);
    expect(arr(pr.perimeter)).toEqual([7, 5, 3, 1]);
  });

  it("pyramid along -z: offsets negated, same sections (area is unsigned)", () => {
    const pr = areaProfile(pyramid, [0, 0, -1], 4, [0, 0, 0]);
    expect(Array.from(pr.t)).toEqual([-1.75, -1.25, -0.75, -0.25]);
    expect(arr(pr.area)).toEqual([0.0625, 0.5625, 1.5625, 3.0625]);
    expect(arr(pr.perimeter)).toEqual([1, 3, 5, 7]);
  });

  it("octahedron: a slice through the equator vertices counts each equator edge once", () => {
    // One slice: t = 1 exactly at the equator; the lower faces give the edges (da < t <= db),
    // the upper faces (all >= t) none. Square of half-diagonal 1: area 2, perimeter 4 sqrt 2.
    const one = areaProfile(octahedron, [0, 0, 1], 1, [0, 0, 0]);
    expect(Array.from(one.t)).toEqual([1]);
    expect(arr(one.area)).toEqual([2]);
    expect(arr(one.perimeter)).toEqual([+(4 * Math.SQRT2).toFixed(12)]);
    // Two slices, t = 0.5, 1.5: squares of half-diagonal 0.5: area 0.5, perimeter 2 sqrt 2.
    const two = areaProfile(octahedron, [0, 0, 1], 2, [0, 0, 1]);
    expect(arr(two.area)).toEqual([0.5, 0.5]);
    expect(arr(two.perimeter)).toEqual([+(2 * Math.SQRT2).toFixed(12), +(2 * Math.SQRT2).toFixed(12)]);
  });

  it("unit cube along its diagonal: triangle, hexagon, triangle", () => {
    // s = x + y + z = t sqrt 3 at 0.5, 1.5, 2.5: triangle of side 0.5 sqrt 2 (area sqrt 3 / 8),
    // regular hexagon of side sqrt 2 / 2 through the edge midpoints (area 3 sqrt 3 / 4).
    const r3 = 1 / Math.sqrt(3);
    const pr = areaProfile(voxels([[0, 0, 0]]), [r3, r3, r3], 3, [0.5, 0.5, 0.5]);
    expect(pr.dt).toBeCloseTo(1 / Math.sqrt(3), 12);
    expect(pr.t[0]).toBeCloseTo(0.5 * r3, 12);
    expect(pr.t[2]).toBeCloseTo(2.5 * r3, 12);
    expect(pr.area[0]).toBeCloseTo(Math.sqrt(3) / 8, 12);
    expect(pr.area[1]).toBeCloseTo((3 * Math.sqrt(3)) / 4, 12);
    expect(pr.area[2]).toBeCloseTo(Math.sqrt(3) / 8, 12);
    expect(pr.perimeter[0]).toBeCloseTo(1.5 * Math.SQRT2, 12);
    expect(pr.perimeter[1]).toBeCloseTo(3 * Math.SQRT2, 12);
    expect(pr.perimeter[2]).toBeCloseTo(1.5 * Math.SQRT2, 12);
  });

  it("unit cube along (0.6, 0.8, 0): sections are the line 0.6x + 0.8y = t (length t / 0.48) times 1", () => {
    const pr = areaProfile(voxels([[0, 0, 0]]), [0.6, 0.8, 0], 2, [0, 0, 0]);
    expect(pr.dt).toBeCloseTo(0.7, 12);
    expect(arr(pr.t)).toEqual([0.35, 1.05]);
    expect(pr.area[0]).toBeCloseTo(0.35 / 0.48, 12);
    expect(pr.area[1]).toBeCloseTo(0.35 / 0.48, 12);
    expect(pr.perimeter[0]).toBeCloseTo(2 * (0.35 / 0.48 + 1), 12);
  });

  it("two separate 2-cubes far from the origin: areas add, origin keeps them exact", () => {
    // At 3e9 the products of uncentred coordinates (~1e19) lose everything below 2048.
    const o = 3e9;
    const m = voxels([...boxCells(0, 2, 0, 2, 0, 2), ...boxCells(5, 7, 0, 2, 0, 2)], [o, o, o]);
    const pr = areaProfile(m, [0, 0, 1], 2, [o + 3.5, o + 1, o + 1]);
    expect(Array.from(pr.t)).toEqual([o + 0.5, o + 1.5]);
    expect(Array.from(pr.area)).toEqual([8, 8]);
    expect(Array.from(pr.perimeter)).toEqual([16, 16]);
  });

  it("a flat surface across the axis: dt 0, all slices at its offset, zero sections", () => {
    const pr = areaProfile(pyramid, [0, 0, 1], 3, [0, 0, 0]);
    expect(pr.dt).toBeCloseTo(2 / 3, 12);
    const flat = areaProfile(
      mesh(
        [
          [0, 0, 4],
          [1, 0, 4],
          [0, 1, 4],
        ],
        [0, 1, 2],
      ),
      [0, 0, 1],
      3,
      [0, 0, 0],
    );
    expect(flat.dt).toBe(0);
    expect(Array.from(flat.t)).toEqual([4, 4, 4]);
    expect(Array.from(flat.area)).toEqual([0, 0, 0]);
  });
});

const profile = (area: number[], t0 = 0.5, dt = 1): Profile => ({
  t: Float64Array.from(area, (_, j) => t0 + j * dt),
  area: Float64Array.from(area),
  perimeter: new Float64Array(area.length),
  dt,
});

describe("findNeck", () => {
  it("fewer than 5 slices or no area: null", () => {
    expect(findNeck(profile([4, 1, 4, 4]), 0)).toBeNull();
    expect(findNeck(profile([0, 0, 0, 0, 0]), 0)).toBeNull();
  });

  it("a single narrow slice: score A / min(max left, max right), t at that slice", () => {
    // j = 2: 1 / min(4, 4) = 0.25; j = 1, 3: 4 / 4 = 1.
    expect(findNeck(profile([4, 4, 1, 4, 4], 10, 2), 0.06)).toEqual({ t: 14, score: 0.25 });
    // The smaller side max wins: 2 / min(8, 4) = 0.5.
    expect(findNeck(profile([8, 8, 2, 4, 4]), 0.06)).toEqual({ t: 2.5, score: 0.5 });
  });

  it("a neck next to the first slice: the end slices are never part of the run", () => {
    expect(findNeck(profile([4, 1, 4, 4, 4]), 0)).toEqual({ t: 1.5, score: 0.25 });
    expect(findNeck(profile([4, 4, 4, 1, 4]), 0)).toEqual({ t: 3.5, score: 0.25 });
  });

  it("a run of equal necks: cut in its middle", () => {
    expect(findNeck(profile([4, 4, 1, 1, 1, 4, 4]), 0)).toEqual({ t: 3.5, score: 0.25 });
    expect(findNeck(profile([4, 1, 1, 4, 4, 4]), 0)).toEqual({ t: 2, score: 0.25 });
  });

  it("the run takes neighbours within score * 1.05 + 0.01 (0.2725 for 0.25)", () => {
    // 1.08 / 4 = 0.27 joins, 1.1 / 4 = 0.275 does not.
    expect(findNeck(profile([4, 4, 1.08, 1, 1.1, 4, 4]), 0)).toEqual({ t: 3, score: 0.25 });
    expect(findNeck(profile([4, 4, 1.1, 1, 1.08, 4, 4]), 0)).toEqual({ t: 4, score: 0.25 });
    // Inclusive: score 0 gives tol 0.01 exactly, and 0.04 / 4 is exactly 0.01.
    expect(findNeck(profile([4, 4, 0.04, 0, 4, 4]), 0)).toEqual({ t: 3, score: 0 });
  });

  it("the deepest neck wins; equal depths keep the first", () => {
    expect(findNeck(profile([4, 2, 4, 1, 4]), 0)).toEqual({ t: 3.5, score: 0.25 });
    expect(findNeck(profile([4, 1, 4, 2, 4]), 0)).toEqual({ t: 1.5, score: 0.25 });
    expect(findNeck(profile([4, 1, 4, 4, 1, 4]), 0)).toEqual({ t: 1.5, score: 0.25 });
  });

  it("no local minimum below its sides: null (score 1 is not a neck)", () => {
    expect(findNeck(profile([1, 2, 3, 4, 5]), 0)).toBeNull();
    expect(findNeck(profile([2, 2, 2, 2, 2]), 0)).toBeNull();
    expect(findNeck(profile([1, 3, 5, 3, 1]), 0)).toBeNull();
  });

  // A convex body's sections along an axis rise and then fall (unimodal): no slice lies below a
  // larger section on both sides, so it has no neck at all, whatever the level's threshold. Its
  // computed areas differ from that only by rounding (a box's scored 0.9999999999999999 before).
  it("a flat profile off by rounding has no neck; a slice below both sides by more than 1e-9 of the largest has", () => {
    expect(findNeck(profile([2, 2, 2 - 4e-16, 2, 2]), 0)).toBeNull();
    expect(findNeck(profile([2, 2, 2 - 1.9e-9, 2, 2]), 0)).toBeNull();
    expect(findNeck(profile([2, 2, 2 - 2.1e-9, 2, 2]), 0)).toEqual({ t: 2.5, score: (2 - 2.1e-9) / 2 });
    // The allowance is of the largest section (8: 8e-9), not of the slice's own or its sides' (2),
    // wherever the largest lies, the last slice included.
    expect(findNeck(profile([8, 2, 2 - 5e-9, 2, 2]), 0)).toBeNull();
    expect(findNeck(profile([2, 2 - 5e-9, 2, 8, 8]), 0)).toBeNull();
    expect(findNeck(profile([2, 2 - 5e-9, 2, 2, 8]), 0)).toBeNull();
    expect(findNeck(profile([2, 2 - 9e-9, 2, 2, 8]), 0)).toEqual({ t: 1.5, score: (2 - 9e-9) / 2 });
  });

  it("each side must hold minSide of the total (boundary inclusive)", () => {
    // total 8, minSide 0.25 -> 2: at j = 1 the left holds cum[1] = 2 (allowed), the right 5.
    expect(findNeck(profile([2, 1, 4, 1, 0]), 0.25)).toEqual({ t: 1.5, score: 0.5 });
    expect(findNeck(profile([2, 1, 4, 1, 0]), 0.26)).toBeNull();
    // Mirrored: at j = 3 the right holds 2 of 8.
    expect(findNeck(profile([0, 1, 4, 1, 2]), 0.25)).toEqual({ t: 3.5, score: 0.5 });
    expect(findNeck(profile([0, 1, 4, 1, 2]), 0.26)).toBeNull();
  });

  it("an empty side is no larger section: empty slices before the only material are no neck", () => {
    expect(findNeck(profile([0, 0, 0, 0, 5]), 0)).toBeNull();
    // Empty slices between two pieces are the deepest neck (score 0).
    expect(findNeck(profile([5, 0, 0, 0, 5]), 0)).toEqual({ t: 2.5, score: 0 });
  });
});

describe("bestNeckCut", () => {
  it("dumbbell: the 2 x 2 bar between 4 x 4 blocks, cut mid-bar at z = 6, score 4 / 16", () => {
    for (const slices of [96, 12]) {
      const c = bestNeckCut(dumbbell, 0.06, slices)!;
      expect(c.n.map((x) => +x.toFixed(9) + 0)).toEqual([0, 0, 1]);
      expect(c.t).toBeCloseTo(6, 9);
      expect(c.score).toBeCloseTo(0.25, 12);
    }
    // Total 1152 (64 block slices of 16, 32 bar slices of 4); each bar slice has at most
    // 572 (< half) on one side, so minSide 0.5 leaves no candidate, 0.49 (564.5) the middle.
    expect(bestNeckCut(dumbbell, 0.5)).toBeNull();
    expect(bestNeckCut(dumbbell, 0.49)!.t).toBeCloseTo(6, 9);
  });

  it("I-beam 20 long: the neck is across the web (a secondary axis), 40 / 80", () => {
    // Flanges y 0..1 and 3..4 (z 0..4), web y 1..3 (z 1..3): y sections 80 and 40.
    const ibeam = voxels([...boxCells(0, 20, 0, 1, 0, 4), ...boxCells(0, 20, 1, 3, 1, 3), ...boxCells(0, 20, 3, 4, 0, 4)]);
    const c = bestNeckCut(ibeam, 0.06, 8)!;
    expect(Math.abs(c.n[1])).toBeCloseTo(1, 9);
    expect(c.n[1] * c.t).toBeCloseTo(2, 9);
    expect(c.score).toBeCloseTo(0.5, 12);
  });

  it("a pyramid (sections shrink or bulge, never pinch) has no neck", () => {
    expect(bestNeckCut(pyramid, 0.06)).toBeNull();
  });

  it("convex solids have no neck on any axis: a box, a slanted box, a sphere", () => {
    const plain = box([-30, 0, -10], [30, 100, 10]);
    const slab = voxels(boxCells(0, 6, 0, 10, 0, 2), [0.1, 0.2, 0.3]);
    const ball = uvSphere(20, 24, 48);
    for (const m of [plain, slab, ball]) {
      const { centroid, axes } = principalAxes(m);
      for (const n of [...axes, [0.6, 0.8, 0] as Vec3]) expect(findNeck(areaProfile(m, n, 96, centroid), 0)).toBeNull();
      expect(bestNeckCut(m, 0)).toBeNull();
    }
  });
});
