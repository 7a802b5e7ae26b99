// Segmentation's last steps pinned on tiny hand-made meshes: the boundary vote
// (smoothBoundaries), the segment colours (segmentMaterial) and the scene it builds
// (buildSegmentationScene). The clustering is pinned in segmentation-exact.test.ts.
import { describe, expect, it } from "vitest";
import { InputContentError } from "./errors";
import { CREASE_BEND, edgeBend, faceNormals, halfEdgeTwins } from "./segment-graph";
import { buildSegmentationScene, SEGMENT_COUNT, segmentMaterial, smoothBoundaries } from "./segmentation";
import { box, sceneOf, unitGrid } from "./generate.test-helpers";

describe("smoothBoundaries, exactly", () => {
  // An 80 x 4 strip of unit squares: the centroid box is 79.33 x 3.33, diagonal 79.4, so the vote
  // cells are 0.0125 x 79.4 = 0.99 wide, the box filter spans about 3 squares and the trilinear
  // lookup half a cell more: a face looks at about 2 squares either side.
  const n = 80,
    m = 4;
  const g = unitGrid(n, m);
  const nf = n * m * 2;
  const twin = halfEdgeTwins(g.indices, g.positions.length / 3);
  const { normal, area } = faceNormals(g.positions, g.indices);
  const flatBend = edgeBend(g.positions, g.indices, twin, normal);
  const sq = (i: number, j: number) => 2 * (j * n + i);
  /** Region 1 from x = 40, a 1-square tooth at (39, 0), a 4-square tooth (36..39, 3), a 1-square island at (20, 2). */
  const sawtooth = () => {
    const l = new Int32Array(nf);
    for (let j = 0; j < m; j++) {
      for (let i = 0; i < n; i++) {
        const one = i >= 40 || (i === 39 && j === 0) || (i >= 36 && j === 3) || (i === 20 && j === 2);
        l[sq(i, j)] = l[sq(i, j) + 1] = one ? 1 : 0;
      }
    }
    return l;
  };
  /** Labels of columns i0..i1 as rows from the top (j = 3), two digits (the square's two faces) per square. */
  const render = (l: Int32Array, i0: number, i1: number) =>
    [3, 2, 1, 0].map((j) => Array.from({ length: i1 - i0 + 1 }, (_, d) => `${l[sq(i0 + d, j)]}${l[sq(i0 + d, j) + 1]}`).join(" "));

  it("planes off the teeth by the faces within the vote radius, and leaves every face beyond it", () => {
    const l = sawtooth();
    const before = Int32Array.from(l);
    smoothBoundaries(l, g.positions, g.indices, { twin, bend: flatBend, area }, 2);
    // Columns 36..41: the 4-square tooth keeps only its last square, and the first face of the
    // squares at x = 39 in rows 1..3 takes the 1 side; the island at (20, 2) is gone.
    expect(render(l, 36, 41)).toEqual([
      "00 00 00 11 11 11", //
      "00 00 00 10 11 11",
      "00 00 00 10 11 11",
      "00 00 00 10 11 11",
    ]);
    expect([l[sq(20, 2)], l[sq(20, 2) + 1]]).toEqual([0, 0]);
    // Everything else as before: columns 0..35 (bar the island) and 40..79.
    for (let f = 0; f < nf; f++) {
      const i = (f >> 1) % n;
      if ((i >= 36 && i <= 39) || f >> 1 === sq(20, 2) >> 1) continue;
      expect(l[f], `face ${f}`).toBe(before[f]);
    }
  });

  it("in 3-D: the strip tilted out of its plane, (y, z) = (0.6 j, 0.8 j), planes the same teeth, cells now fall so that (39, 2) goes whole to 1", () => {
    const tilted = Float32Array.from(g.positions, (v, i) => (i % 3 === 1 ? v * 0.6 : i % 3 === 2 ? g.positions[i - 1]! * 0.8 : v));
    const l = sawtooth();
    smoothBoundaries(l, tilted, g.indices, { twin, bend: flatBend, area }, 2);
    expect(render(l, 36, 41)).toEqual(["00 00 00 11 11 11", "00 00 00 11 11 11", "00 00 00 10 11 11", "00 00 00 10 11 11"]);
    expect([l[sq(20, 2)], l[sq(20, 2) + 1]]).toEqual([0, 0]);
  });

  it("faces on a crease keep their segment: only bends of CREASE_BEND and more on paired edges count", () => {
    const island = [sq(20, 2), sq(20, 2) + 1];
    const withBend = (b: number, paired = true) => {
      const bend = Float32Array.from(flatBend);
      const tw = paired ? twin : Int32Array.from(twin);
      // The island's diagonal (face sq's edge 2 runs a+n+2 -> a).
      bend[island[0]! * 3 + 2] = b;
      if (!paired) tw[island[0]! * 3 + 2] = -1;
      const l = sawtooth();
      smoothBoundaries(l, g.positions, g.indices, { twin: tw, bend, area }, 2);
      return island.map((f) => l[f]);
    };
    expect(withBend(CREASE_BEND)).toEqual([1, 0]); // the creased face stays, its partner does not
    expect(withBend(CREASE_BEND * 0.999)).toEqual([0, 0]);
    expect(withBend(CREASE_BEND, false)).toEqual([0, 0]); // an open edge is no crease
  });

  it("votes by area: an island of heavy faces takes its neighbours", () => {
    // The island's two faces weigh 10 each instead of 0.5: the squares around it (rows 1..3, columns
    // 19..21, and one face of (22, 3), where the cells fall) go over to 1.
    const heavy = Float32Array.from(area);
    heavy[sq(20, 2)] = heavy[sq(20, 2) + 1] = 10;
    const l = sawtooth();
    smoothBoundaries(l, g.positions, g.indices, { twin, bend: flatBend, area: heavy }, 2);
    expect(render(l, 18, 22)).toEqual(["00 11 11 11 01", "00 11 11 11 00", "00 11 11 11 00", "00 00 00 00 00"]);
  });

  it("a tie keeps the face's own segment", () => {
    // Faces 0 and 1 coincide (labels 0 and 1, equal areas, equal votes); faces 2 and 3 far off keep both segments.
    const pos = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 100, 0, 0, 101, 0, 0, 100, 1, 0, 0, 100, 0, 1, 100, 0, 0, 101, 0]);
    const idx = new Uint32Array([0, 1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const l = new Int32Array([0, 1, 0, 1]);
    const none = new Int32Array(12).fill(-1);
    smoothBoundaries(l, pos, idx, { twin: none, bend: new Float32Array(12), area: new Float32Array([1, 1, 1, 1]) }, 2);
    expect(Array.from(l)).toEqual([0, 1, 0, 1]);
  });

  it("leaves all labels as they were if a segment would vanish", () => {
    // Three segments: the island alone is segment 2, which the vote would remove.
    const l = sawtooth();
    l[sq(20, 2)] = l[sq(20, 2) + 1] = 2;
    const before = Int32Array.from(l);
    smoothBoundaries(l, g.positions, g.indices, { twin, bend: flatBend, area }, 3);
    expect(Array.from(l)).toEqual(Array.from(before));
  });
});

describe("segmentMaterial, exactly", () => {
  it("the ten palette colours, then golden-angle hues", () => {
    expect(segmentMaterial(0)).toEqual({
      name: "segment_1",
      baseColorFactor: [0.8, 0.15, 0.1, 1],
      metallicFactor: 0,
      roughnessFactor: 0.7,
    });
    expect(segmentMaterial(9)).toEqual({
      name: "segment_10",
      baseColorFactor: [0.3, 0.3, 0.3, 1],
      metallicFactor: 0,
      roughnessFactor: 0.7,
    });
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((r) => segmentMaterial(r).baseColorFactor)).toEqual([
      [0.1, 0.4, 0.8, 1],
      [0.15, 0.65, 0.2, 1],
      [0.9, 0.7, 0.1, 1],
      [0.5, 0.2, 0.7, 1],
      [0.1, 0.7, 0.7, 1],
      [0.9, 0.35, 0.6, 1],
      [0.45, 0.3, 0.15, 1],
      [0.95, 0.45, 0.05, 1],
    ]);
    // r = 10: h = frac(10 x 0.618034) = 0.180340, 6h = 1.082039; f(k) = 0.85 - 0.6 clamp(min(x, 4 - x)),
    // x = (k + 6h) mod 6: f(5): x = 0.082039 -> 0.800777; f(3): x = 4.082 -> 4 - x < 0 -> 0.85; f(1): x = 2.082 -> 1 -> 0.25.
    const m10 = segmentMaterial(10);
    expect(m10.name).toBe("segment_11");
    const c = m10.baseColorFactor;
    expect(c[0]).toBeCloseTo(0.800777, 5);
    expect(c[1]).toBeCloseTo(0.85, 10);
    expect(c[2]).toBeCloseTo(0.25, 10);
    expect(c[3]).toBe(1);
    // r = 11: h = 0.798374, 6h = 4.790243: f(5): x = 3.790 -> 4 - x = 0.2098 -> 0.724; f(3): x = 1.790 -> 0.25; f(1): x = 5.790 -> 0.85.
    const c11 = segmentMaterial(11).baseColorFactor;
    expect(c11[0]).toBeCloseTo(0.85 - 0.6 * (4 - ((5 + 6 * ((11 * 0.618033988749895) % 1)) % 6)), 10);
    expect(c11[0]).toBeCloseTo(0.72414, 4);
    expect([c11[1], c11[2]]).toEqual([0.25, 0.85]);
  });
});

describe("buildSegmentationScene, exactly", () => {
  const cube = sceneOf(box([0, 0, 0], [2, 1, 1]));

  it("SEGMENT_COUNT is 3 / 6 / 10", () => {
    expect(SEGMENT_COUNT).toEqual({ low: 3, medium: 6, high: 10 });
  });

  it.each([
    ["low", 3],
    ["medium", 6],
    ["high", 10],
  ] as const)("a 12-face box at %s: %i parts segment_1.., their triangles add up to 12, each on its own vertices", (level, k) => {
    const s = buildSegmentationScene(cube, level);
    expect(s.parts.map((p) => p.name)).toEqual(Array.from({ length: k }, (_, i) => `segment_${i + 1}`));
    expect(s.parts.map((p) => p.material)).toEqual(Array.from({ length: k }, (_, i) => segmentMaterial(i)));
    expect(s.parts.reduce((t, p) => t + p.indices.length / 3, 0)).toBe(12);
    const input = new Set<string>();
    const src = cube.parts[0]!;
    for (let t = 0; t < 36; t += 3)
      input.add(
        [0, 1, 2].map((e) => Array.from(src.positions.subarray(src.indices[t + e]! * 3, src.indices[t + e]! * 3 + 3)).join(",")).join(" "),
      );
    const out = new Set<string>();
    for (const p of s.parts) {
      // Every vertex of a part is used, and used once in its positions.
      expect(new Set(p.indices).size).toBe(p.positions.length / 3);
      expect(p.normals!.length).toBe(p.positions.length);
      for (let t = 0; t < p.indices.length; t += 3)
        out.add(
          [0, 1, 2].map((e) => Array.from(p.positions.subarray(p.indices[t + e]! * 3, p.indices[t + e]! * 3 + 3)).join(",")).join(" "),
        );
    }
    expect(out).toEqual(input);
  });

  it("a two-face quad at low: two parts only (no empty part), each a triangle of 3 vertices with a unit normal", () => {
    const quad = sceneOf({
      name: "q",
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    });
    const s = buildSegmentationScene(quad, "low");
    expect(s.parts.map((p) => p.name)).toEqual(["segment_1", "segment_2"]);
    expect(s.parts.map((p) => Array.from(p.indices))).toEqual([
      [0, 1, 2],
      [0, 1, 2],
    ]);
    expect(s.parts.map((p) => Array.from(p.positions))).toEqual([
      [0, 0, 0, 1, 0, 0, 1, 1, 0],
      [0, 0, 0, 1, 1, 0, 0, 1, 0],
    ]);
    expect(Array.from(s.parts[0]!.normals!)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1]);
  });

  it("no triangles: an InputContentError", () => {
    const empty = sceneOf({ name: "e", positions: new Float32Array([0, 0, 0]), indices: new Uint32Array(0) });
    expect(() => buildSegmentationScene(empty, "low")).toThrow(InputContentError);
    expect(() => buildSegmentationScene(empty, "low")).toThrow("the mesh has no triangles");
  });
});
