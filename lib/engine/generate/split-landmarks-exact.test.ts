// findLandmarks pinned on hand-built slice stacks (20 slices at y = 2i + 1, a few components each),
// horizontalSlices on a two-box union, connectorsAt / boxesOverlap on boxes; figures worked by hand.
import type { Manifold } from "manifold-3d";
import { afterAll, describe, expect, it } from "vitest";
import { type CutFace, boxesOverlap, connectorsAt } from "./joints";
import { Arena, getManifold } from "./manifold";
import type { Bounds } from "./mesh-ops";
import { type Slice, type SliceComponent, findLandmarks, horizontalSlices } from "./split-landmarks";

const wasm = await getManifold();
const arena = new Arena();
afterAll(() => arena.free());

const c = (area: number, x0: number, x1: number): SliceComponent => ({ area, x0, x1, z0: 0, z1: 1 });
const bounds = (x0: number, y0: number, x1: number, y1: number): Bounds => ({ min: [x0, y0, -1], max: [x1, y1, 1] });
/** n slices at y = 2i + 1 (dy = 2 when the bounds span 2n). */
const stack = (rows: (i: number) => SliceComponent[], n = 20): Slice[] =>
  Array.from({ length: n }, (_, i) => ({ y: 2 * i + 1, comps: rows(i) }));

// The reference figure, symmetric about x = 2 (so xc = 2 exactly):
// rows 0-7 legs [-1,1] and [3,5]; rows 8-15 torso [-2,6] (area 8); rows 9-14 hanging arms
// [7,8] (left) and [-4,-3] (right); row 16 neck [1,3]; rows 17-19 head [0,4] (area 4).
const LEGS = (): SliceComponent[] => [c(2, -1, 1), c(2, 3, 5)];
function figure(over: Record<number, SliceComponent[]> = {}): Slice[] {
  return stack((i) => {
    if (over[i]) return over[i];
    if (i <= 7) return LEGS();
    if (i === 8 || i === 15) return [c(8, -2, 6)];
    if (i <= 14) return [c(8, -2, 6), c(1, 7, 8), c(1, -4, -3)];
    if (i === 16) return [c(1, 1, 3)];
    return [c(4, 0, 4)];
  });
}
const B = bounds(-8, 0, 12, 40); // W = 20, H = 40, dy = 2
const rowsOf = (from: number, to: number, comps: () => SliceComponent[]): Record<number, SliceComponent[]> =>
  Object.fromEntries(Array.from({ length: to - from + 1 }, (_, k) => [from + k, comps()]));

describe("findLandmarks: the reference figure", () => {
  it("crotch at the top leg slice, neck at the narrow slice, arms through the gaps", () => {
    // Crotch: row 7 (y 15) has legs on both sides of xc = 2 and the torso above; legGap = (3 + 1) / 2.
    // Neck: candidates y in [15 + 0.15 * 25, 40 - 4] = rows 9-17; row 16 scores min(4, 8) / 1 = 4.
    // Arms: band y in (17, 31) = rows 9-14, six rows with an arm beside: left (6 + 7) / 2,
    // right -(2 + 3) / 2 (edges signed outward: torso -x0 = 2, arm -x1 = 3).
    expect(findLandmarks(figure(), B)).toEqual({ xc: 2, crotch: 15, legGap: 2, neck: 33, leftCut: 6.5, rightCut: -2.5, fallback: [] });
  });

  it("the body centre is the area-weighted centroid", () => {
    // Without the right arm: sum(area * mid) = 8*8 + 8*16 + 6*7.5 + 2 + 3*8 = 263 over areas
    // 32 + 64 + 6 + 1 + 12 = 115.
    const lm = findLandmarks(figure(rowsOf(9, 14, () => [c(8, -2, 6), c(1, 7, 8)])), B);
    expect(lm.xc).toBeCloseTo(263 / 115, 12);
  });

  it("specks of exactly 1e-3 of the largest slice area are ignored", () => {
    // Largest slice total = 8 + 1 + 1 = 10; a speck of 0.01 across xc at row 7 is not > 0.01.
    const lm = findLandmarks(figure({ 7: [...LEGS(), c(0.01, 1.5, 2.5)] }), B);
    expect(lm).toEqual({ xc: 2, crotch: 15, legGap: 2, neck: 33, leftCut: 6.5, rightCut: -2.5, fallback: [] });
  });

  it("no material at all: every landmark falls back to the fixed fractions", () => {
    // xc = centre of x [-4, 8] = 2; neck = 22 - 0.15 * 20; crotch = 2 + 0.5 * (19 - 2);
    // arms at the outer thirds: 8 - 12/3 and -4 + 12/3.
    const lm = findLandmarks(
      stack(() => []),
      bounds(-4, 2, 8, 22),
    );
    expect(lm).toEqual({
      xc: 2,
      crotch: 10.5,
      legGap: 2,
      neck: 19,
      leftCut: 4,
      rightCut: 0,
      fallback: ["crotch", "neck", "left_arm", "right_arm"],
    });
  });
});

describe("findLandmarks: crotch", () => {
  it("bisects with probe to just below the junction (7 halvings of [15, 17])", () => {
    // Junction at 15.9: mids 16 (joined), 15.5, 15.75, 15.875 (apart), 15.9375, 15.90625 (joined),
    // 15.890625 (apart) -> y0 = 15.890625. Joined = a component spanning legGap = 2, here [2, 6]
    // (its edge on legGap) beside an arm that does not; the 0.01 speck over the gap is ignored.
    const probe = (y: number): SliceComponent[] => (y >= 15.9 ? [c(8, 2, 6), c(1, 7, 8)] : [...LEGS(), c(0.01, 1.9, 2.1)]);
    const lm = findLandmarks(figure(), B, probe);
    expect(lm.crotch).toBe(15.890625);
    expect(lm.legGap).toBe(2);
  });

  it("bisection counts a component whose right edge is on legGap as joined", () => {
    const probe = (y: number): SliceComponent[] => (y >= 15.9 ? [c(8, -2, 2)] : LEGS());
    expect(findLandmarks(figure(), B, probe).crotch).toBe(15.890625);
  });

  it("finds the crotch at the lowest slice", () => {
    // Legs only in row 0 (y 1), torso from row 1.
    const lm = findLandmarks(figure(rowsOf(1, 7, () => [c(8, -2, 6)])), B);
    expect([lm.crotch, lm.legGap, lm.fallback]).toEqual([1, 2, []]);
  });

  it("takes the highest of two gaps", () => {
    // Legs joined at row 3 (a knee band): rows 2 (y 5) and 7 (y 15) both qualify.
    const lm = findLandmarks(figure({ 3: [c(6, -2, 6)] }), B);
    expect(lm.crotch).toBe(15);
  });

  it("accepts a gap exactly at 0.65 H and rejects one above", () => {
    // Bounds y [-1, 39]: limit -1 + 26 = 25 = row 12. Legs rows 0-12, torso 13-15.
    // Neck: base 25, candidates y >= 27.1 (rows 14-17): row 16 scores 4 -> 33. Band y in (27, 31)
    // = row 14, the torso alone: no arm either side (reach - torso = 0).
    const at = findLandmarks(figure(rowsOf(8, 12, LEGS)), bounds(-8, -1, 12, 39));
    expect(at).toMatchObject({ crotch: 25, legGap: 2, neck: 33, fallback: ["left_arm", "right_arm"] });
    // Legs up to row 13 (y 27 > 25): no crotch; neck still 33 (from the bottom: row 16 scores
    // 4, row 14 has nothing below), crotch = -1 + 0.5 * 34.
    const above = findLandmarks(figure(rowsOf(8, 13, LEGS)), bounds(-8, -1, 12, 39));
    expect(above).toMatchObject({ crotch: 16, neck: 33, fallback: ["crotch", "left_arm", "right_arm"] });
    expect(above.legGap).toBe(above.xc);
  });

  it.each([
    ["the left leg only", () => [c(2, 3, 5)]],
    ["the right leg only", () => [c(2, -1, 1)]],
    ["a right 'leg' under a tenth of the slice (0.4 < 0.44)", () => [c(4, 3, 5), c(0.4, -1, 1)]],
    ["a left 'leg' under a tenth of the slice", () => [c(0.4, 3, 5), c(4, -1, 1)]],
    ["a skirt across the centre", () => [c(4, -1, 5)]],
  ])("no crotch with %s: placed at half the neck height", (_, legs) => {
    // Neck from the bottom: row 16 scores 4 -> 33; crotch = 0 + 0.5 * 33.
    const lm = findLandmarks(figure(rowsOf(0, 7, legs)), B);
    expect([lm.crotch, lm.neck, lm.fallback]).toEqual([16.5, 33, ["crotch"]]);
  });

  it("no crotch when nothing joins above the gap (two towers)", () => {
    // No central component anywhere: neck 40 - 6, crotch 17, no arms.
    const lm = findLandmarks(
      stack(() => LEGS()),
      B,
    );
    expect(lm).toEqual({
      xc: 2,
      crotch: 17,
      legGap: 2,
      neck: 34,
      leftCut: 12 - 20 / 3,
      rightCut: -8 + 20 / 3,
      fallback: ["crotch", "neck", "left_arm", "right_arm"],
    });
  });

  it("the innermost components are the legs and a leg of exactly a tenth counts", () => {
    // Row: left leg [3,5] (1), left hand [7,8] (2), right leg [-1,1] (5), right hand [-5,-3] (2):
    // total 10, left leg 1 = 0.1 * 10 is enough; legGap = (3 + 1) / 2.
    const lm = findLandmarks(figure(rowsOf(0, 7, () => [c(1, 3, 5), c(2, 7, 8), c(5, -1, 1), c(2, -5, -3)])), B);
    expect([lm.crotch, lm.legGap, lm.fallback]).toEqual([15, 2, []]);
  });

  it("a component with an edge exactly on xc is central", () => {
    // xc stays 2 (each extra pair balances). Row 7: [2,3] touches xc from the right, row 6:
    // [1,2] from the left, so rows 7 and 6 are joined; the crotch is row 5 (y 11).
    const lm = findLandmarks(
      figure({
        6: [...LEGS(), c(1, 1, 2), c(1, 2.25, 2.75)],
        7: [...LEGS(), c(1, 2, 3), c(1, 1.25, 1.75)],
      }),
      B,
    );
    expect([lm.xc, lm.crotch, lm.legGap]).toEqual([2, 11, 2]);
  });
});

describe("findLandmarks: neck", () => {
  const BUST = bounds(-8, -1, 12, 39); // no legs: base -1, candidates y in [5, 35]
  const bust = (areas: (i: number) => number): Slice[] => stack((i) => (areas(i) > 0 ? [c(areas(i), -2, 6)] : []));

  it("a neck three slices long: its middle", () => {
    // Rows 15-17 narrow, each scoring min(4, 8) / 1 = 4; the first (15) wins, the run 15-17 -> 16.
    const lm = findLandmarks(figure({ 15: [c(1, 1, 3)], 17: [c(1, 1, 3)] }), B);
    expect(lm.neck).toBe(33);
  });

  it("a neck two slices long: the upper of the two (Math.round of 16.5)", () => {
    const lm = findLandmarks(figure({ 17: [c(1, 1, 3)] }), B);
    expect(lm.neck).toBe(35);
  });

  it("widens downward over slices within 3% of the best", () => {
    // Rows 14, 15 area 1.03 score 4 / 1.03 = 3.8835 (>= 0.97 * 4); row 16 scores 4 > 1.02 * 3.8835.
    // Run 14-16 -> row 15 (y 31).
    const lm = findLandmarks(figure({ 14: [c(1.03, 1, 3)], 15: [c(1.03, 1, 3)] }), B);
    expect(lm.neck).toBe(31);
  });

  it("a later slice less than 2% better does not take over", () => {
    // Row 14 scores 4 (area 1), row 15 scores 2, row 16 scores 4 / 0.99 = 4.04 < 4.08.
    const lm = findLandmarks(figure({ 14: [c(1, 1, 3)], 15: [c(2, 0.5, 3.5)], 16: [c(0.99, 1, 3)] }), B);
    expect(lm.neck).toBe(29);
  });

  it("a score of exactly 1.53 is not a neck, 1.54 is", () => {
    // Shoulders 153 (or 154), neck 100, head 200: min(200, 153) / 100 = 1.53 = 1.5 * 1.02.
    const no = findLandmarks(
      bust((i) => (i < 10 ? 153 : i === 10 ? 100 : 200)),
      BUST,
    );
    expect([no.neck, no.crotch, no.fallback]).toEqual([33, 16, ["crotch", "neck", "left_arm", "right_arm"]]);
    const yes = findLandmarks(
      bust((i) => (i < 10 ? 154 : i === 10 ? 100 : 200)),
      BUST,
    );
    expect([yes.neck, yes.crotch, yes.fallback]).toEqual([21, 10, ["crotch", "left_arm", "right_arm"]]);
  });

  it("a bust's candidates start exactly at 15% of the height", () => {
    // lo = -1 + 0.15 * 40 = 5 = row 2: shoulders 8, neck 1, head 6 -> min(6, 8) / 1.
    expect(
      findLandmarks(
        bust((i) => (i < 2 ? 8 : i === 2 ? 1 : 6)),
        BUST,
      ).neck,
    ).toBe(5);
    // One row lower (y 3 < 5) it is not a candidate: no neck, 39 - 6.
    expect(
      findLandmarks(
        bust((i) => (i < 1 ? 8 : i === 1 ? 1 : 6)),
        BUST,
      ).neck,
    ).toBe(33);
  });

  it("a bust's candidates end exactly two slices below the top", () => {
    // Row 17 (y 35 = 39 - 2 * 2) scores min(4, 8) / 1 = 4; row 18 (area 0.5) would score 8.
    const areas = (i: number) => (i < 17 ? 8 : i === 17 ? 1 : i === 18 ? 0.5 : 4);
    expect(findLandmarks(bust(areas), BUST).neck).toBe(35);
  });

  it("an empty slice (a floating head) is no candidate", () => {
    // Rows 0-12 area 8, row 13 empty, row 14 area 1, rows 15-19 area 4: row 14 scores 4.
    const lm = findLandmarks(
      bust((i) => (i < 13 ? 8 : i === 13 ? 0 : i === 14 ? 1 : 4)),
      BUST,
    );
    expect(lm.neck).toBe(29);
  });

  it("what lies below the crotch does not count as shoulders", () => {
    // A base plate (area 100) under the legs; thin torso 3, neck 2.5, head 6: the neck scores
    // min(6, 3) / 2.5 = 1.2 < 1.5 -> no neck (40 - 6); the torso alone has no arms.
    const lm = findLandmarks(
      stack((i) => (i === 0 ? [c(100, -8, 12)] : i <= 7 ? LEGS() : i <= 15 ? [c(3, -2, 6)] : i === 16 ? [c(2.5, 1, 3)] : [c(6, 0, 4)])),
      B,
    );
    expect(lm).toEqual({
      xc: 2,
      crotch: 15,
      legGap: 2,
      neck: 34,
      leftCut: 12 - 20 / 3,
      rightCut: -8 + 20 / 3,
      fallback: ["neck", "left_arm", "right_arm"],
    });
  });
});

describe("findLandmarks: arms", () => {
  it.each([
    // Per band row 9-14 (torso x1, arm x0). Overlap (max torso 7.5 >= min arm 7): medians
    // sorted[round(2.5)] = 6.6 and 7.4 -> 7.
    [
      "overlapping: medians",
      [
        [6.4, 7.3],
        [6, 7],
        [7.5, 7.8],
        [6.8, 7.6],
        [6.6, 7.2],
        [6.2, 7.4],
      ],
      7,
    ],
    // Touching (max torso 7 = min arm 7, an arm flush with the torso in row 11 still counts):
    // medians 6 and 7.2 -> 6.6.
    [
      "touching: medians",
      [
        [6, 7],
        [6, 7.2],
        [7, 7],
        [6, 7.2],
        [6, 7.2],
        [6, 7.2],
      ],
      6.6,
    ],
  ])("hanging arm, %s", (_, pairs, cut) => {
    const over = Object.fromEntries(pairs.map(([t, a], k) => [9 + k, [c(8, -2, t!), c(1, a!, 8), c(1, -4, -3)]]));
    const lm = findLandmarks(figure(over), B);
    expect(lm.leftCut).toBeCloseTo(cut, 12);
    expect([lm.rightCut, lm.fallback]).toEqual([-2.5, []]);
  });

  it("the band excludes the slices one step above the crotch and below the neck", () => {
    // Rows 8 (y 17 = 15 + 2) and 15 (y 31 = 33 - 2) carry pieces close to the torso ([6.2, 8],
    // [-4, -2.5]) that would pull the cuts to 6.1 and -2.25.
    const lm = findLandmarks(figure({ 8: [c(8, -2, 6), c(1, 6.2, 8)], 15: [c(8, -2, 6), c(1, -4, -2.5)] }), B);
    expect([lm.crotch, lm.neck, lm.leftCut, lm.rightCut]).toEqual([15, 33, 6.5, -2.5]);
  });

  it("the arm's inner edge is the nearest thing beside the torso", () => {
    // A prop [9,10] beside the arm [7,8] in every band row: cut still (6 + 7) / 2.
    const lm = findLandmarks(figure(rowsOf(9, 14, () => [c(8, -2, 6), c(1, 7, 8), c(1, 9, 10), c(1, -4, -3)])), B);
    expect([lm.leftCut, lm.rightCut]).toEqual([6.5, -2.5]);
  });

  it("the torso is the largest component across xc, not a thin strap over it", () => {
    const lm = findLandmarks(figure(rowsOf(9, 14, () => [c(0.5, 1, 3), c(8, -2, 6), c(1, 7, 8), c(1, -4, -3)])), B);
    expect([lm.xc, lm.leftCut, lm.rightCut]).toEqual([2, 6.5, -2.5]);
  });

  it("two arm slices are enough, one is not (band of 6: max(2, 0.6))", () => {
    const two = findLandmarks(
      figure({
        9: [c(8, -2, 6), c(1, -4, -3)],
        12: [c(8, -2, 6), c(1, -4, -3)],
        13: [c(8, -2, 6), c(1, -4, -3)],
        14: [c(8, -2, 6), c(1, -4, -3)],
      }),
      B,
    );
    expect([two.leftCut, two.rightCut, two.fallback]).toEqual([6.5, -2.5, []]);
    const one = findLandmarks(
      figure({
        9: [c(8, -2, 6), c(1, -4, -3)],
        11: [c(8, -2, 6), c(1, -4, -3)],
        12: [c(8, -2, 6), c(1, -4, -3)],
        13: [c(8, -2, 6), c(1, -4, -3)],
        14: [c(8, -2, 6), c(1, -4, -3)],
      }),
      B,
    );
    // Left falls back to 12 - 20/3 (the T-pose test finds no reach).
    expect(one.leftCut).toBeCloseTo(12 - 20 / 3, 12);
    expect([one.rightCut, one.fallback]).toEqual([-2.5, ["left_arm"]]);
  });

  it("a long band needs a tenth of its slices to carry the arm", () => {
    // 60 slices (H 120): legs 0-19, torso 20-54, neck 55, head 56-59; crotch 39, neck 111,
    // band y in (41, 109) = rows 21-53 (33 rows): 3 arm rows < 3.3 fall back, 4 are enough.
    const tall = (arms: number): Slice[] =>
      stack(
        (i) =>
          i <= 19
            ? LEGS()
            : i <= 54
              ? i >= 30 && i < 30 + arms
                ? [c(8, -2, 6), c(1, 7, 8)]
                : [c(8, -2, 6)]
              : i === 55
                ? [c(1, 1, 3)]
                : [c(4, 0, 4)],
        60,
      );
    const b = bounds(-8, 0, 12, 120);
    const three = findLandmarks(tall(3), b);
    expect([three.crotch, three.neck, three.fallback]).toEqual([39, 111, ["left_arm", "right_arm"]]);
    expect(findLandmarks(tall(4), b).leftCut).toBe(6.5);
  });

  // T/A-pose, symmetric about 2: band rows 9-14 have central left edges [6, 6, 12, 7, 6.5, 6]
  // (right, -x0: [2, 2, 8, 3, 2.5, 2]). 30th percentile sorted[round(1.5)] = 6 (2); half = 4;
  // reach 6 >= 2; armless edges e - 6 < 1 -> max 6.5 (7 is out) -> 6.5 + 0.01 * 20.
  const tpose = (armRow: SliceComponent): Slice[] =>
    figure({ 9: [c(8, -2, 6)], 10: [c(8, -2, 6)], 11: [armRow], 12: [c(10, -3, 7)], 13: [c(9, -2.5, 6.5)], 14: [c(8, -2, 6)] });

  it("T-pose: the cut is just beyond the widest armless torso slice", () => {
    const lm = findLandmarks(tpose(c(12, -8, 12)), B);
    expect(lm.leftCut).toBeCloseTo(6.7, 12);
    expect(lm.rightCut).toBeCloseTo(-2.7, 12);
    expect([lm.xc, lm.crotch, lm.neck, lm.fallback]).toEqual([2, 15, 33, []]);
  });

  it("T-pose: a reach of exactly half the half-width is an arm", () => {
    // Raised row [-4, 8]: reach 8 - 6 = 2 = 0.5 * 4.
    const lm = findLandmarks(tpose(c(12, -4, 8)), B);
    expect(lm.leftCut).toBeCloseTo(6.7, 12);
    expect(lm.rightCut).toBeCloseTo(-2.7, 12);
  });

  it("T-pose: on a very wide model the reach is measured against 2% of the width", () => {
    // W = 1000: max(4, 20) = 20, reach 6 < 10 -> outer thirds 502 - 1000/3, -498 + 1000/3.
    const lm = findLandmarks(tpose(c(12, -8, 12)), bounds(-498, 0, 502, 40));
    expect(lm.leftCut).toBeCloseTo(502 - 1000 / 3, 9);
    expect(lm.rightCut).toBeCloseTo(-498 + 1000 / 3, 9);
    expect(lm.fallback).toEqual(["left_arm", "right_arm"]);
  });

  it("cuts that meet are moved 1% of the width apart around their middle", () => {
    // No right arm: right falls back to 3.5 + 9/3 = 6.5 = the left cut; then 6.5 +- 0.09.
    const lm = findLandmarks(figure(rowsOf(9, 14, () => [c(8, -2, 6), c(1, 7, 8)])), bounds(3.5, 0, 12.5, 40));
    expect(lm.leftCut).toBeCloseTo(6.59, 12);
    expect(lm.rightCut).toBeCloseTo(6.41, 12);
    expect(lm.fallback).toEqual(["right_arm"]);
  });
});

// ---------------------------------------------------------------------------------------------

const cube = (min: [number, number, number], size: [number, number, number]): Manifold =>
  arena.keep(arena.keep(wasm.Manifold.cube(size)).translate(min));
const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

describe("horizontalSlices", () => {
  // Box A x 1..3, y 1..5, z 0.5..1.5 (area 2) and box B x 4..7, y 1..3, z -1..1 (area 6).
  const m = arena.keep(wasm.Manifold.union([cube([1, 1, 0.5], [2, 4, 1]), cube([4, 1, -1], [3, 2, 2])]));
  const b: Bounds = { min: [1, 1, -1], max: [7, 5, 1.5] };
  const flat = (cs: SliceComponent[]) => cs.map((k) => [k.area, k.x0, k.x1, k.z0, k.z1].map(round6)).sort((p, q) => p[1]! - q[1]!);
  const A = [2, 1, 3, 0.5, 1.5],
    Bx = [6, 4, 7, -1, 1];

  it("n slices at the centres of n equal bands, components with area, x and z extents", () => {
    // H = 4, n = 4: y = 1 + (i + 0.5); B reaches y 3.
    const { slices } = horizontalSlices(m, b, 4, arena);
    expect(slices.map((s) => s.y)).toEqual([1.5, 2.5, 3.5, 4.5]);
    expect(slices.map((s) => flat(s.comps))).toEqual([[A, Bx], [A, Bx], [A], [A]]);
  });

  it("probe slices at any height", () => {
    const { probe } = horizontalSlices(m, b, 1, arena);
    expect(flat(probe(2.9))).toEqual([A, Bx]);
    expect(flat(probe(3.1))).toEqual([A]);
  });
});

describe("connectorsAt", () => {
  const I = Infinity;
  const box3 = (m: Manifold) => {
    const bb = m.boundingBox();
    return [...bb.min, ...bb.max].map((v) => round6(v));
  };
  // r = 0.3 sqrt(area / pi); the inset (1.2 r) of a rectangle keeps its centre.

  it("ball on a +Y face: sphere of r at the section centroid, cutter r + 0.2", () => {
    // Child x 0..6, y 10..14, z 0..10; face y = 10. Section (u = z, w = x) 10 x 6 = 60:
    // r = 0.3 sqrt(60 / pi) = 1.311058; centre (x 3, y 10, z 5).
    const face: CutFace = { axis: 1, offset: 10, childSide: 1, rect: [-I, I, -I, I] };
    const out = connectorsAt(wasm, arena, cube([0, 10, 0], [6, 4, 10]), face, "ball", 20);
    expect(out.length).toBe(1);
    const r = 1.311058,
      rc = 1.511058;
    expect(box3(out[0]!.key)).toEqual([3 - r, 10 - r, 5 - r, 3 + r, 10 + r, 5 + r].map(round6));
    expect(box3(out[0]!.cutter)).toEqual([3 - rc, 10 - rc, 5 - rc, 3 + rc, 10 + rc, 5 + rc].map(round6));
  });

  it("pin on a -X face: cylinder along X of radius 0.6 r and length 3 r", () => {
    // Child x -8..-2, y 0..10, z 1..5; face x = -2, child below. Section (u = y, w = z) 10 x 4 = 40:
    // r = 1.070474, rp = 0.642285, half length 1.5 r = 1.605711; centre (x -2, y 5, z 3).
    const face: CutFace = { axis: 0, offset: -2, childSide: -1, rect: [-I, I, -I, I] };
    const out = connectorsAt(wasm, arena, cube([-8, 0, 1], [6, 10, 4]), face, "pin", 20);
    expect(out.length).toBe(1);
    const key = out[0]!.key.boundingBox(),
      cut = out[0]!.cutter.boundingBox();
    const want = (h: number, rp: number) => [-2 - h, 5 - rp, 3 - rp, -2 + h, 5 + rp, 3 + rp];
    [...key.min, ...key.max].forEach((v, k) => expect(v).toBeCloseTo(want(1.605711, 0.642285)[k]!, 5));
    [...cut.min, ...cut.max].forEach((v, k) => expect(v).toBeCloseTo(want(1.805711, 0.842285)[k]!, 5));
    // Straight prisms on a 24-gon (area 12 sin 15deg r^2 = 3.105829 r^2):
    // key 3.105829 * 0.642285^2 * 3.211422 = 4.114624, cutter 3.105829 * 0.842285^2 * 3.611422 = 7.957446.
    expect(out[0]!.key.volume()).toBeCloseTo(4.114624, 4);
    expect(out[0]!.cutter.volume()).toBeCloseTo(7.957446, 4);
  });

  it("dovetail on a +Z face: trapezoid key 2 r long, slot open on +w (y) and grown by 0.2 (mitred)", () => {
    // Child x 1..9, y 2..6, z 3..8; face z = 3. Section (u = x, w = y) 8 x 4 = 32: r = 0.957461,
    // centre (5, 4). Key: x 5 +- 0.8 r, y 4 +- r, z 3 + [-0.5 r, r]. Cutter: the trapezoid
    // offset by 0.2 with mitres: top corners move out by 0.2 (1 + sqrt 26) / 5 = 0.243961 (side
    // slope 1:5), so x 5 +- (0.765969 + 0.243961); z 3 + [-0.5 r - 0.2, r + 0.2]; extruded
    // r + 0.2 + 20 from y 4 - r - 0.2 -> y [2.842539, 24].
    const face: CutFace = { axis: 2, offset: 3, childSide: 1, rect: [-I, I, -I, I] };
    const out = connectorsAt(wasm, arena, cube([1, 2, 3], [8, 4, 5]), face, "dovetail", 20);
    expect(out.length).toBe(1);
    const key = out[0]!.key.boundingBox(),
      cut = out[0]!.cutter.boundingBox();
    const wantKey = [5 - 0.765969, 4 - 0.957461, 3 - 0.478731, 5 + 0.765969, 4 + 0.957461, 3 + 0.957461];
    const wantCut = [5 - 1.00993, 2.842539, 3 - 0.678731, 5 + 1.00993, 24, 3 + 1.157461];
    [...key.min, ...key.max].forEach((v, k) => expect(v).toBeCloseTo(wantKey[k]!, 5));
    [...cut.min, ...cut.max].forEach((v, k) => expect(v).toBeCloseTo(wantCut[k]!, 5));
  });

  it("a dovetail on a face with the child below points down", () => {
    // Same child seen from a face z = 8 with the child below (s = -1): z 8 - [-0.5 r, r].
    const face: CutFace = { axis: 2, offset: 8, childSide: -1, rect: [-I, I, -I, I] };
    const out = connectorsAt(wasm, arena, cube([1, 2, 3], [8, 4, 5]), face, "dovetail", 20);
    const key = out[0]!.key.boundingBox();
    expect(key.min[2]).toBeCloseTo(8 - 0.957461, 5);
    expect(key.max[2]).toBeCloseTo(8 + 0.478731, 5);
  });

  it("a section too thin for the inset halves r and uses the section's own centroid", () => {
    // Section z 0..1 x x 0..40 (area 40): r = 1.070474, inset 1.28 > 0.5 empty; r = 0.535237,
    // inset 0.64 still empty -> centroid of the section (x 20, z 0.5).
    const face: CutFace = { axis: 1, offset: 0, childSide: 1, rect: [-I, I, -I, I] };
    const out = connectorsAt(wasm, arena, cube([0, 0, 0], [40, 2, 1]), face, "ball", 20);
    expect(out.length).toBe(1);
    const r = 0.535237;
    expect(box3(out[0]!.key)).toEqual([20 - r, -r, 0.5 - r, 20 + r, r, 0.5 + r].map(round6));
  });

  it("the centre is the inset's centroid: a thin spike does not pull it", () => {
    // Square x 0..10, z 0..10 plus a spike x 4.75..5.25, z 10..20 (area 105, r = 1.734367); the
    // inset (2.08) drops the spike -> centre (5, 5) up to a small bump where the spike joins
    // (+0.001 in z); the whole section's centroid would be z 575 / 105 = 5.476.
    const child = arena.keep(wasm.Manifold.union([cube([0, 0, 0], [10, 2, 10]), cube([4.75, 0, 10], [0.5, 2, 10])]));
    const face: CutFace = { axis: 1, offset: 0, childSide: 1, rect: [-I, I, -I, I] };
    const out = connectorsAt(wasm, arena, child, face, "ball", 40);
    expect(out.length).toBe(1);
    const bb = out[0]!.key.boundingBox();
    expect((bb.min[0] + bb.max[0]) / 2).toBeCloseTo(5, 3);
    expect((bb.min[2] + bb.max[2]) / 2).toBeCloseTo(5, 2);
    expect((bb.max[0] - bb.min[0]) / 2).toBeCloseTo(1.734367, 5);
  });

  it("one connector per piece of the section inside the face's rectangle", () => {
    // Pieces x 0..4, 10..13 and 20..20.9 (y 0..2, z 0..6 / 0..1); rect z >= 1, x <= 12:
    // A 4 x 5 = 20 -> r 0.756940 at (2, 3.5); B 2 x 5 = 10 -> r 0.535237 at (11, 3.5); C dropped.
    const child = arena.keep(wasm.Manifold.union([cube([0, 0, 0], [4, 2, 6]), cube([10, 0, 0], [3, 2, 6]), cube([20, 0, 0], [0.9, 2, 1])]));
    const face: CutFace = { axis: 1, offset: 0, childSide: 1, rect: [1, I, -I, 12] };
    const out = connectorsAt(wasm, arena, child, face, "ball", 20);
    const got = out.map((k) => box3(k.key)).sort((p, q) => p[0]! - q[0]!);
    const ball = (x: number, z: number, r: number) => [x - r, -r, z - r, x + r, r, z + r].map(round6);
    expect(got).toEqual([ball(2, 3.5, 0.75694), ball(11, 3.5, 0.535237)]);
  });

  it("the face's rectangle is clipped to 4 x the model extent", () => {
    // extent 2: |u|, |w| <= 8, so only piece A (x 0..4, z 0..6: r 0.829186 at (2, 3)) is left.
    const child = arena.keep(wasm.Manifold.union([cube([0, 0, 0], [4, 2, 6]), cube([10, 0, 0], [3, 2, 6])]));
    const face: CutFace = { axis: 1, offset: 0, childSide: 1, rect: [-I, I, -I, I] };
    const out = connectorsAt(wasm, arena, child, face, "ball", 2);
    expect(out.map((k) => box3(k.key))).toEqual([
      [2 - 0.829186, -0.829186, 3 - 0.829186, 2 + 0.829186, 0.829186, 3 + 0.829186].map(round6),
    ]);
  });
});

describe("boxesOverlap", () => {
  const A = cube([0, 0, 0], [1, 1, 1]);
  it.each([
    ["gap 0.005 < default margin", [1.005, 0, 0], undefined, true],
    ["gap 0.02 > default margin", [1.02, 0, 0], undefined, false],
    ["gap exactly the margin 0.5", [1.5, 0, 0], 0.5, true],
    ["gap 0.75 > margin 0.5", [1.75, 0, 0], 0.5, false],
    ["apart in y only", [0.5, 3, 0], undefined, false],
    ["apart in z only", [0.5, 0.5, -2], undefined, false],
    ["overlapping", [0.5, 0.5, 0.5], undefined, true],
  ] as const)("%s", (_, at, margin, want) => {
    const other = cube([at[0], at[1], at[2]], [1, 1, 1]);
    expect(boxesOverlap(A, other, margin)).toBe(want);
    expect(boxesOverlap(other, A, margin)).toBe(want);
  });
});
