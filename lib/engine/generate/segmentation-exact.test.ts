// Segmentation pinned on tiny hand-made meshes and feature arrays: face adjacency, k-means on
// 6-D features (sampling, seeds, duplicate centroids), the merge order of crease against smooth
// boundaries, separate shells and the halving of tiny meshes. The boundary vote, the colours and
// the scene are pinned in segmentation-scene-exact.test.ts.
import { describe, expect, it } from "vitest";
import { faceNeighbours, kmeansFaces, segmentFaces } from "./segmentation";
import { unitGrid } from "./generate.test-helpers";

/** 6-D features with only the first coordinate set. */
const feats1 = (xs: number[]) => {
  const f = new Float32Array(xs.length * 6);
  xs.forEach((x, i) => (f[i * 6] = x));
  return f;
};
/** Labels renumbered by first appearance, so that partitions compare whatever the cluster numbers. */
const canon = (labels: Int32Array) => {
  const m = new Map<number, number>();
  return Array.from(labels, (l) => (m.has(l) ? m.get(l)! : (m.set(l, m.size), m.size - 1)));
};

/**
 * A sheet extruded along z (0..depth, nz rows) from a profile polyline in the xy plane: 2 nz faces per
 * profile segment, segment by segment, normals on the +y / +x side.
 */
function sheet(profile: [number, number][], nz = 1, depth = 1) {
  const pos: number[] = [],
    idx: number[] = [];
  for (const [x, y] of profile) for (let z = 0; z <= nz; z++) pos.push(x, y, (z * depth) / nz);
  for (let i = 0; i + 1 < profile.length; i++) {
    for (let z = 0; z < nz; z++) {
      const a = (nz + 1) * i + z,
        c = a + nz + 1;
      idx.push(a, a + 1, c, c, a + 1, c + 1);
    }
  }
  return { positions: new Float32Array(pos), indices: new Uint32Array(idx) };
}

/** Separate triangles in z = 0, each centred (centroid) at (cx, 0, 0) with half-width s: area 3 s^2. */
function triangles(shapes: [number, number][]) {
  const pos: number[] = [];
  for (const [cx, s] of shapes) pos.push(cx - s, -s, 0, cx + s, -s, 0, cx, 2 * s, 0);
  return { positions: new Float32Array(pos), indices: Uint32Array.from(pos.slice(0, pos.length / 3), (_, i) => i) };
}

describe("faceNeighbours, exactly", () => {
  it("a tetrahedron: every edge names the one face across it", () => {
    // Faces 0 (0 2 1), 1 (0 1 3), 2 (1 2 3), 3 (2 0 3); edge e of a face runs from corner e to e + 1.
    const nb = faceNeighbours(new Uint32Array([0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3]));
    // f0: 0-2 -> f3, 2-1 -> f2, 1-0 -> f1; f1: 0-1 -> f0, 1-3 -> f2, 3-0 -> f3;
    // f2: 1-2 -> f0, 2-3 -> f3, 3-1 -> f1; f3: 2-0 -> f0, 0-3 -> f1, 3-2 -> f2.
    expect(Array.from(nb)).toEqual([3, 2, 1, 0, 2, 3, 0, 3, 1, 0, 1, 2]);
  });

  it("an open strip: -1 on every boundary edge, the other face on the diagonal", () => {
    // Quad 0 1 2 3 as (0 1 2) and (0 2 3): only 2-0 / 0-2 is shared.
    expect(Array.from(faceNeighbours(new Uint32Array([0, 1, 2, 0, 2, 3])))).toEqual([-1, -1, 1, 0, -1, -1]);
    // Three faces in a fan around vertex 0: the middle one has both neighbours.
    expect(Array.from(faceNeighbours(new Uint32Array([0, 1, 2, 0, 2, 3, 0, 3, 4])))).toEqual([-1, -1, 1, 0, -1, 2, 1, -1, -1]);
  });
});

describe("kmeansFaces, exactly", () => {
  const xs = [0, 0.1, 0.2, 5, 5.1, 9, 9.2];

  it("three well-separated clusters come out whole, whatever the seed; the seed only renumbers them", () => {
    for (const seed of [1, 2, 5, 7]) expect(canon(kmeansFaces(feats1(xs), 3, seed)), `seed ${seed}`).toEqual([0, 0, 0, 1, 1, 2, 2]);
    // The numbering follows the first centre drawn: seed 1 starts at the 5s, 2 at the 9s, 7 at the 0s.
    expect(Array.from(kmeansFaces(feats1(xs), 3, 1))).toEqual([1, 1, 1, 0, 0, 2, 2]);
    expect(Array.from(kmeansFaces(feats1(xs), 3, 2))).toEqual([1, 1, 1, 2, 2, 0, 0]);
    expect(Array.from(kmeansFaces(feats1(xs), 3))).toEqual(Array.from(kmeansFaces(feats1(xs), 3, 1)));
    expect(Array.from(kmeansFaces(feats1(xs), 3, 7))).toEqual([0, 0, 0, 1, 1, 2, 2]);
  });

  it("k = 2 ends in the better split {0..0.2 | 5..9.2} from most seeds, and in the other local minimum from seed 5", () => {
    // {0, .1, .2} | {5, 5.1, 9, 9.2}: squared error 16.4; {0..5.1} | {9, 9.2}: 29.4, but stable once reached.
    expect(canon(kmeansFaces(feats1(xs), 2, 1))).toEqual([0, 0, 0, 1, 1, 1, 1]);
    expect(canon(kmeansFaces(feats1(xs), 2, 5))).toEqual([0, 0, 0, 0, 0, 1, 1]);
  });

  it("the centres move to the cluster means (Lloyd), which moves a point between clusters", () => {
    // 0, 0, 0, 4 | 5.5 | 10, 12, 12: started at points, 5.5 is nearer 10 than 0; after the update the
    // means are 1 and 9.875 (with 5.5) - 4.5 against 4.375, still B; without 5.5 B's mean is 11.33.
    const pts = [0, 0, 0, 4, 5.5, 10, 12, 12];
    const l = canon(kmeansFaces(feats1(pts), 2));
    expect(l).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });

  it("k above the number of distinct points: duplicate centres are never chosen (first centre wins ties)", () => {
    // Points 0, 1, 0, 1, 2 and k = 5: three distinct centres, then two more copies (zero distance
    // total draws the first sample). Labels stay within the first three centres' numbers.
    for (const seed of [1, 2, 3]) {
      const l = kmeansFaces(feats1([0, 1, 0, 1, 2]), 5, seed);
      expect(Array.from(l), `seed ${seed}`).toEqual([1, 0, 1, 0, 2]);
    }
    // All features equal: one cluster, number 0.
    expect(Array.from(kmeansFaces(feats1([3, 3, 3, 3]), 3))).toEqual([0, 0, 0, 0]);
  });

  it("uses all six coordinates: points equal in x separate by a normal coordinate", () => {
    const f = new Float32Array(4 * 6);
    f[0 * 6 + 5] = 0.35;
    f[1 * 6 + 5] = 0.35;
    f[2 * 6 + 5] = -0.35;
    f[3 * 6 + 5] = -0.35;
    expect(canon(kmeansFaces(f, 2))).toEqual([0, 0, 1, 1]);
  });

  it("fits on every face up to 39 999 faces, on every other face from 40 000 (then assigns all)", () => {
    // Faces alternate between x = 0 and x = 1. Sample step floor(nf / 20000): with step 2 the sample
    // holds only x = 0 faces, both centres land on 0 and every face takes the first.
    const alt = (n: number) => feats1(Array.from({ length: n }, (_, f) => f % 2));
    expect(new Set(kmeansFaces(alt(39_998), 2)).size).toBe(2);
    expect(new Set(kmeansFaces(alt(20_000), 2)).size).toBe(2);
    expect(new Set(kmeansFaces(alt(40_000), 2))).toEqual(new Set([0]));
  });
});

describe("segmentFaces, exactly", () => {
  /** A wall of height h at x = 0 (one quad, normal +x) standing on a floor 0..10 (ten quads, normal +y): a concave 90-degree crease. */
  const wallOnFloor = (h: number) => {
    const prof: [number, number][] = [
      [0, h],
      [0, 0],
    ];
    for (let x = 1; x <= 10; x++) prof.push([x, 0]);
    return sheet(prof);
  };

  it("the crease against the smooth boundary: the wall stays apart unless it is under 0.2 / 1.05 of the floor piece", () => {
    // k = 2: k-means puts the wall with the floor's first 4 quads, which the crease cuts off; patches
    // wall (area h), floor 0..4 (4), floor 4..10 (6). Costs: wall | floor = (0.05 + 1) h, floor | floor =
    // 0.05 x 4 (over the same total): the wall goes first when h < 0.2 / 1.05 = 0.1905.
    const tall = wallOnFloor(0.195);
    expect(Array.from(segmentFaces(tall.positions, tall.indices, 2))).toEqual([1, 1, ...Array<number>(20).fill(0)]);
    const low = wallOnFloor(0.185);
    // Wall + floor 0..4 (10 faces, 4.185) against floor 4..10 (12 faces, 6): the larger is region 0.
    expect(Array.from(segmentFaces(low.positions, low.indices, 2))).toEqual([...Array<number>(10).fill(1), ...Array<number>(12).fill(0)]);
  });

  it("the crease share is by length and by bend, capped at 1: a 45-degree wall on a 2-deep, 2-row sheet", () => {
    // Wall leaning out by 45 degrees: bend 1 - cos 45 = 0.29, over CREASE_BEND (0.134), so weight 1.
    // Its boundary is 2 edges of 1 (share 2 / 2 = 1); the floor pieces meet along 2 smooth edges
    // (share 0). Areas 2 h against 2 x 4: the wall goes first when 1.05 x 2h < 0.05 x 8, h < 0.19.
    const lean = (h: number) => {
      const prof: [number, number][] = [
        [-h * Math.SQRT1_2, h * Math.SQRT1_2],
        [0, 0],
      ];
      for (let x = 1; x <= 10; x++) prof.push([x, 0]);
      return sheet(prof, 2, 2);
    };
    const apart = lean(0.3);
    expect(Array.from(segmentFaces(apart.positions, apart.indices, 2))).toEqual([1, 1, 1, 1, ...Array<number>(40).fill(0)]);
    const joined = lean(0.15);
    expect(Array.from(segmentFaces(joined.positions, joined.indices, 2))).toEqual([
      ...Array<number>(20).fill(1),
      ...Array<number>(24).fill(0),
    ]);
  });

  it("several merges in cost order: a staircase and a zig-zag, every k", () => {
    // Staircase: six steps (riser, tread), each riser a concave crease at its foot and a convex one at its top.
    const steps: [number, number][] = [[0, 0]];
    for (let i = 1; i <= 6; i++) steps.push([i * 2 - 1, i - 1], [i * 2 - 1, i], [i * 2, i]);
    const st = sheet(steps, 1, 3);
    const str = (k: number) => Array.from(segmentFaces(st.positions, st.indices, k)).join("");
    expect([2, 3, 4, 5, 6].map(str)).toEqual([
      "111111110000000000000000000000000000",
      "111111112222220000000000000000000000",
      "111111112222223333330000000000000000",
      "111111112222223333334444440000000000",
      "000000001111112222223333334444445555",
    ]);
    // The same stairs seen from below (winding flipped): every crease turns convex and every convex edge concave.
    const flip = Uint32Array.from(st.indices, (_, i) => st.indices[i - (i % 3) + [0, 2, 1][i % 3]!]!);
    const fstr = (k: number) => Array.from(segmentFaces(st.positions, flip, k)).join("");
    expect([2, 3, 4, 5, 6].map(fstr)).toEqual([
      "000000000000000000000000000011111111",
      "000000000000000000000022222211111111",
      "111111111133333300000000000022222222",
      "000000000022222233333344444411111111",
      "555511111122222233333344444400000000",
    ]);
    const zz: [number, number][] = [0, 0, 1, 1, 1, 0, 0, 0, 2, 2, 0, 0, 0].map((y, i) => [i, y]);
    const z = sheet(zz, 2, 2);
    const zstr = (k: number) => Array.from(segmentFaces(z.positions, z.indices, k)).join("");
    expect([2, 3, 4, 5].map(zstr)).toEqual([
      "000000000000000000000000000011111111111111111111",
      "111111111111111111110000000000000000000022222222",
      "000000000000000000002222222211111111111133333333",
      "444411111111111111112222222200000000000033333333",
    ]);
  });

  it("does not depend on where the mesh is: moved by (100, -50, 30), the same labels", () => {
    const s = sheet([[0, 0.185], [0, 0], ...Array.from({ length: 10 }, (_, i): [number, number] => [i + 1, 0])]);
    const moved = Float32Array.from(s.positions, (v, i) => v + [100, -50, 30][i % 3]!);
    for (const k of [2, 3])
      expect(Array.from(segmentFaces(moved, s.indices, k)), `k ${k}`).toEqual(Array.from(segmentFaces(s.positions, s.indices, k)));
    expect(Array.from(segmentFaces(moved, s.indices, 2))).toEqual([...Array<number>(10).fill(1), ...Array<number>(12).fill(0)]);
  });

  it("k = 1 joins everything across the crease; k = 3 keeps the wall and cuts the floor in halves at x = 5", () => {
    const s = wallOnFloor(1);
    // The two floor halves have equal areas (5): the sort keeps patch order, so x 0..5 is region 0.
    expect(Array.from(segmentFaces(s.positions, s.indices, 1))).toEqual(Array<number>(22).fill(0));
    expect(Array.from(segmentFaces(s.positions, s.indices, 3))).toEqual([2, 2, ...Array<number>(10).fill(0), ...Array<number>(10).fill(1)]);
  });

  it("regions are numbered largest first", () => {
    // A fold with a long wall (4) over a short floor (2): k = 2 gives the two sides, the wall first.
    const s = sheet([
      [0, 4],
      [0, 2],
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(Array.from(segmentFaces(s.positions, s.indices, 2))).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });

  it("separate shells: the smallest joins the nearest centroid, centroids averaged over the merged faces", () => {
    // Areas 3 s^2: A (x 0, 12), B (x 4, 3), C (x 10, 6.75), D (x 19, 9.72); k = 2 and no shared edges.
    // B (smallest) joins A (4 away, not 6); AB's centroid is x = 2, so C (smallest, 6.75) is 8 from AB
    // and 9 from D (from A alone it would be 10, and D would win). ABC (21.75) is region 0.
    const t = triangles([
      [0, 2],
      [4, 1],
      [10, 1.5],
      [19, 1.8],
    ]);
    expect(Array.from(segmentFaces(t.positions, t.indices, 2))).toEqual([0, 0, 0, 1]);
    // k = 3: only B joins A; D (9.72) before C (6.75).
    expect(Array.from(segmentFaces(t.positions, t.indices, 3))).toEqual([0, 0, 2, 1]);
  });

  it("separate shells by their centroids (mean of all three corners), the smallest moving, not the largest", () => {
    // Triangles (x, 0) (x, 1) (x + w, 0.5): centroid x + w / 3, area w / 2. A: x 0, w 9 (centroid 3,
    // area 4.5); B: x 10, w 3 (11, 1.5); C: x 14, w 18 (20, 9). B is nearer A (8) than C (9), though its
    // corners at x = 10 are nearer C's at 14: AB (6) and C (9), C first.
    const pos: number[] = [];
    for (const [x, w] of [
      [0, 9],
      [10, 3],
      [14, 18],
    ] as const)
      pos.push(x, 0, 0, x, 1, 0, x + w, 0.5, 0);
    expect(Array.from(segmentFaces(new Float32Array(pos), new Uint32Array([0, 1, 2, 3, 4, 5, 6, 7, 8]), 2))).toEqual([1, 1, 0]);
  });

  it("separate shells: a merged shell is measured from the mean of its faces' centroids", () => {
    // Centroids (x) A 0, B 4, C 10, D 17; areas 12, 3, 6.75, 9.72. B joins A (4 against 6); AB's centroid
    // is the mean, x = 2: C is 8 from it and 7 from D, so C joins D (from the sum, x = 4, it would join AB).
    const t = triangles([
      [0, 2],
      [4, 1],
      [10, 1.5],
      [17, 1.8],
    ]);
    // CD (16.47) is region 0, AB (15) region 1.
    expect(Array.from(segmentFaces(t.positions, t.indices, 2))).toEqual([1, 1, 0, 0]);
  });

  it("separate shells: a merged shell that is still the smallest moves from the mean of its centroids", () => {
    // Centroids (x) D 0, A 10, B 12, C 24; areas 9.72, 1.08, 0.48, 6.75. B joins A (2 against 12); AB
    // (1.56) is still the smallest and its mean, x = 11, is 11 from D and 13 from C: ABD (11.28) is
    // region 0, C region 1 (from the sum of the two centroids AB would sit next to C).
    const t = triangles([
      [0, 1.8],
      [10, 0.6],
      [12, 0.4],
      [24, 1.5],
    ]);
    expect(Array.from(segmentFaces(t.positions, t.indices, 2))).toEqual([0, 0, 0, 1]);
  });

  it("merges across edges first, then joins a separate shell: the wall on its floor and a far triangle, k = 1", () => {
    const s = sheet([[0, 1], [0, 0], ...Array.from({ length: 10 }, (_, i): [number, number] => [i + 1, 0])]);
    const pos = Float32Array.from([...s.positions, 30, 0, 0, 31, 0, 0, 30, 1, 0]);
    const idx = Uint32Array.from([...s.indices, 24, 25, 26]);
    expect(Array.from(segmentFaces(pos, idx, 1))).toEqual(Array<number>(23).fill(0));
    // k = 2: the triangle alone, everything else together.
    expect(Array.from(segmentFaces(pos, idx, 2))).toEqual([...Array<number>(22).fill(0), 1]);
  });

  it("smooths the k-means boundaries it returns: a 40 x 40 grid at k = 3", () => {
    // Unsmoothed, the regions hold 1200 / 1007 / 993 faces across 75 edges; the vote moves 3 faces
    // from region 1 to region 0 and leaves 72 edges between regions.
    const g = unitGrid(40, 40);
    const l = segmentFaces(g.positions, g.indices, 3);
    expect([0, 1, 2].map((r) => l.filter((x) => x === r).length)).toEqual([1203, 1004, 993]);
    const nb = faceNeighbours(g.indices);
    let cut = 0;
    nb.forEach((o, h) => {
      if (o >= 0 && l[o] !== l[Math.floor(h / 3)]) cut++;
    });
    expect(cut / 2).toBe(72);
  });

  it("fewer faces than k: one region per face, no more", () => {
    const quad = { positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2, 0, 2, 3]) };
    expect(Array.from(segmentFaces(quad.positions, quad.indices, 3))).toEqual([0, 1]);
  });

  it("fewer distinct faces than k: the largest region is split, all but one face moving when their x ties", () => {
    // One triangle four times: one k-means cluster; the twins pair copies 0-1 and 2-3, so two patches
    // of two faces (equal size: index order). k = 3: region 0 (faces 0, 1) splits, x equal to the
    // median, so face 0 moves to region 2 and face 1 (the last) stays.
    const pos = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const four = new Uint32Array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
    expect(Array.from(segmentFaces(pos, four, 3))).toEqual([2, 0, 1, 1]);
    // k = 4: then region 1 (2 faces) is the largest: face 2 moves to region 3.
    expect(Array.from(segmentFaces(pos, four, 4))).toEqual([2, 0, 3, 1]);
    // k = 5: every region has one face, nothing left to split.
    expect(Array.from(segmentFaces(pos, four, 5))).toEqual([2, 0, 3, 1]);
  });
});
