// penaliseOccluded pinned on one to three hand-placed triangles: which view sees which side,
// the exact penalty, the depth margin and how it widens at grazing angles, the cell a triangle's
// centroid falls in (one tenth of a cell either side of the occluder's edge), and the box that
// sets the depth buffer's cell size (the longer side over 512 cells).
import { describe, expect, it } from "vitest";
import { type MeshBox, penaliseOccluded } from "./texture-visibility";

type V3 = [number, number, number];
interface Tri {
  v: [V3, V3, V3];
  /** The normal handed in (the function takes it as given, so grazing angles need no geometry). */
  n: V3;
}

const UNIT: MeshBox = { minX: 0, minY: 0, minZ: 0, maxX: 1, maxY: 1, maxZ: 1 };
/** Depth-buffer cell of the unit box: max(1, 1) / 512. */
const CS = 1 / 512;
const ALL = [true, true, true, true];

/** Runs penaliseOccluded with every score at 1; returns the count and the scores. */
function run(tris: Tri[], opts: { present?: boolean[]; box?: MeshBox; penalty?: number } = {}) {
  const positions = new Float32Array(tris.flatMap((t) => t.v.flat()));
  const indices = Uint32Array.from(tris.flatMap((_, i) => [3 * i, 3 * i + 1, 3 * i + 2]));
  const normals = new Float32Array(tris.flatMap((t) => t.n));
  const score = new Float32Array(tris.length * 4).fill(1);
  const hidden = penaliseOccluded(positions, indices, normals, opts.present ?? ALL, opts.box ?? UNIT, score, opts.penalty ?? 0.25);
  return { hidden, score: Array.from(score) };
}

/** Front-view triangle from cell coordinates (a to the right from minX, r down from maxY) and depth z. */
const front = (cells: [number, number][], z: number, n: V3 = [0, 0, 1]): Tri => ({
  v: cells.map(([a, r]) => [a * CS, 1 - r * CS, z]) as [V3, V3, V3],
  n,
});
/** A big front triangle covering cells a, r in 0..~300. */
const BIG: [number, number][] = [
  [0, 0],
  [400, 0],
  [0, 400],
];
/** Triangle a tenth of a cell across with its centroid at (a, r) in cells. */
const dot = (a: number, r: number): [number, number][] => [
  [a - 0.05, r - 0.05],
  [a + 0.1, r - 0.05],
  [a - 0.05, r + 0.1],
];

describe("penaliseOccluded: which face, which view, how much", () => {
  it("front view: the face behind loses exactly `penalty` for view 0 only; the face in front keeps its score", () => {
    const r = run([front(BIG, 0.75), front(BIG, 0.25)], { penalty: 0.375 });
    expect(r.hidden).toBe(1);
    expect(r.score).toEqual([1, 1, 1, 1, 1 - 0.375, 1, 1, 1]);
  });

  it("the order of the triangles does not matter (nearest depth wins the buffer)", () => {
    const r = run([front(BIG, 0.25), front(BIG, 0.75)]);
    expect(r.score).toEqual([0.75, 1, 1, 1, 1, 1, 1, 1]);
  });

  it("a view that is not present is skipped", () => {
    const r = run([front(BIG, 0.75), front(BIG, 0.25)], { present: [false, true, true, true] });
    expect(r).toEqual({ hidden: 0, score: [1, 1, 1, 1, 1, 1, 1, 1] });
  });

  it("back view (1): faces with normal -z, the one with the larger z is behind", () => {
    const back = (z: number) => front(BIG, z, [0, 0, -1]);
    const r = run([back(0.75), back(0.25)]);
    expect(r.hidden).toBe(1);
    expect(r.score).toEqual([1, 0.75, 1, 1, 1, 1, 1, 1]);
  });

  const side = (x: number, nx: number): Tri => ({
    v: [
      [x, 0.9, 0.1],
      [x, 0.1, 0.1],
      [x, 0.5, 0.9],
    ],
    n: [nx, 0, 0],
  });

  it("left view (2): normal -x, the face at the larger x is behind", () => {
    const r = run([side(0.8, -1), side(0.2, -1)]);
    expect(r.hidden).toBe(1);
    expect(r.score).toEqual([1, 1, 0.75, 1, 1, 1, 1, 1]);
  });

  it("right view (3): normal +x, the face at the smaller x is behind", () => {
    const r = run([side(0.8, 1), side(0.2, 1)]);
    expect(r.hidden).toBe(1);
    expect(r.score).toEqual([1, 1, 1, 1, 1, 1, 1, 0.75]);
  });

  it("every view at once: a closed pair of plates hides nothing when each faces outwards", () => {
    // Two plates facing away from each other: each view rasterises only the one facing it.
    const r = run([front(BIG, 0.75), front(BIG, 0.25, [0, 0, -1])]);
    expect(r).toEqual({ hidden: 0, score: [1, 1, 1, 1, 1, 1, 1, 1] });
  });

  it("a face turned away from the camera does not occlude", () => {
    const r = run([front(BIG, 0.75, [0, 0, -1]), front(BIG, 0.25)], { present: [true, false, false, false] });
    expect(r.hidden).toBe(0);
    // Turned exactly edge-on (normal z = 0) neither occludes nor is penalised.
    expect(run([front(BIG, 0.75, [1, 0, 0]), front(BIG, 0.25)], { present: [true, false, false, false] }).hidden).toBe(0);
    expect(run([front(BIG, 0.75), front(BIG, 0.25, [1, 0, 0])], { present: [true, false, false, false] }).hidden).toBe(0);
  });
});

describe("penaliseOccluded: the occluder's edge", () => {
  // Occluder with a vertical edge at a = 100 cells: it covers cells whose centre (a + 0.5) is at
  // most 100, i.e. columns 0..99. A behind dot's centroid in column floor(a) decides.
  const edge: [number, number][] = [
    [100, 0],
    [100, 400],
    [-300, 200],
  ];
  const FRONT = [true, false, false, false];

  it("a face whose centroid is a tenth of a cell inside the edge is hidden, a tenth outside is not", () => {
    expect(run([front(edge, 0.75), front(dot(99.9, 200.5), 0.25)], { present: FRONT }).hidden).toBe(1);
    expect(run([front(edge, 0.75), front(dot(100.1, 200.5), 0.25)], { present: FRONT }).hidden).toBe(0);
  });

  it("the same along the rows: an edge at r = 100 hides r = 99.9 and not r = 100.1", () => {
    const top: [number, number][] = [
      [0, 100],
      [400, 100],
      [200, -300],
    ];
    expect(run([front(top, 0.75), front(dot(200.5, 99.9), 0.25)], { present: FRONT }).hidden).toBe(1);
    expect(run([front(top, 0.75), front(dot(200.5, 100.1), 0.25)], { present: FRONT }).hidden).toBe(0);
  });

  it("the buffer holds the occluder's depth interpolated at the cell centre", () => {
    // Occluder depth 0.5 + a * CS (one cell of depth per cell across). At the dot's cell 50
    // (centre 50.5) it holds 0.5 + 50.5 CS; a face (normal +z) is hidden when more than 1.5 CS behind.
    const ramp = (cells: [number, number][]): Tri => ({
      v: cells.map(([a, r]) => [a * CS, 1 - r * CS, 0.5 + a * CS]) as [V3, V3, V3],
      n: [0, 0, 1],
    });
    const at = (gap: number) => run([ramp(BIG), front(dot(50.1, 50.5), 0.5 + (50.5 - gap) * CS)], { present: FRONT }).hidden;
    expect(at(1.6)).toBe(1);
    expect(at(1.4)).toBe(0);
    // Along the rows too: depth 0.5 + r * CS, the dot at row 60 (centre 60.5).
    const rampR = (cells: [number, number][]): Tri => ({
      v: cells.map(([a, r]) => [a * CS, 1 - r * CS, 0.5 + r * CS]) as [V3, V3, V3],
      n: [0, 0, 1],
    });
    const atR = (gap: number) => run([rampR(BIG), front(dot(50.5, 60.1), 0.5 + (60.5 - gap) * CS)], { present: FRONT }).hidden;
    expect(atR(1.6)).toBe(1);
    expect(atR(1.4)).toBe(0);
  });

  it("triangles smaller than a cell are splatted at their centroid's cell", () => {
    // Dots a tenth of a cell across contain no cell centre: each sets only its centroid's cell.
    // Both a near and a far dot in cell (30, 40): hidden; the near one a cell aside: not.
    expect(run([front(dot(30.2, 40.2), 0.75), front(dot(30.3, 40.3), 0.25)], { present: FRONT }).hidden).toBe(1);
    expect(run([front(dot(31.2, 40.2), 0.75), front(dot(30.3, 40.3), 0.25)], { present: FRONT }).hidden).toBe(0);
    expect(run([front(dot(30.2, 41.2), 0.75), front(dot(30.3, 40.3), 0.25)], { present: FRONT }).hidden).toBe(0);
  });
});

describe("penaliseOccluded: the depth margin", () => {
  const FRONT = [true, false, false, false];
  /** A dot behind BIG (depth 0.5) by `gap` cells, with its normal's z `f` (x makes it unit). */
  const behind = (gap: number, f: number) =>
    run([front(BIG, 0.5), front(dot(100.5, 100.5), 0.5 - gap * CS, [Math.sqrt(1 - f * f), 0, f])], { present: FRONT }).hidden;

  it("facing the camera (f = 1): hidden beyond 1.5 cells", () => {
    expect(behind(1.55, 1)).toBe(1);
    expect(behind(1.45, 1)).toBe(0);
  });

  it("at f = 0.6 the margin widens to 1.5 + 2 * 0.8 / 0.6 = 4.1667 cells", () => {
    expect(behind(4.2, 0.6)).toBe(1);
    expect(behind(4.13, 0.6)).toBe(0);
  });

  it("below f = 0.15 the widening stops growing: at f = 0.1, 1.5 + 2 * sqrt(0.99) / 0.15 = 14.766 cells", () => {
    expect(behind(14.8, 0.1)).toBe(1);
    expect(behind(14.73, 0.1)).toBe(0);
    // At f = 0.15 itself the same 1.5 + 2 * sqrt(1 - 0.0225) / 0.15 = 14.683 cells.
    expect(behind(14.72, 0.15)).toBe(1);
    expect(behind(14.65, 0.15)).toBe(0);
  });
});

describe("penaliseOccluded: the box", () => {
  const FRONT = [true, false, false, false];

  it("the cell is the longer side over 512: a box 2 wide doubles the margin, a box 2 tall too", () => {
    const wide: MeshBox = { ...UNIT, maxX: 2 };
    const tall: MeshBox = { ...UNIT, maxY: 2 };
    const at = (box: MeshBox, gap: number) =>
      run([front(BIG, 0.5), front(dot(100.5, 100.5), 0.5 - gap * CS)], { box, present: FRONT }).hidden;
    expect(at(UNIT, 1.6)).toBe(1);
    expect(at(wide, 2.9)).toBe(0); // margin 1.5 * 2/512 = 3 unit cells
    expect(at(wide, 3.1)).toBe(1);
    expect(at(tall, 2.9)).toBe(0);
    expect(at(tall, 3.1)).toBe(1);
  });

  it("the buffer starts at the box's minimum: cells are counted from minX and from maxY", () => {
    // Box x -1..1, y 0..2: cell 2 CS, column (x + 1) / (2 CS) = (a + 512) / 2, row (2 - y) / (2 CS) = (512 + r) / 2.
    // The occluder's edge at a = 100 is column 306; dots at a = 99.8 / 100.2 fall in columns 305 / 306.
    const box: MeshBox = { ...UNIT, minX: -1, maxY: 2 };
    const edge: [number, number][] = [
      [100, 0],
      [100, 400],
      [-300, 200],
    ];
    expect(run([front(edge, 0.75), front(dot(99.8, 200.5), 0.25)], { box, present: FRONT }).hidden).toBe(1);
    expect(run([front(edge, 0.75), front(dot(100.2, 200.5), 0.25)], { box, present: FRONT }).hidden).toBe(0);
  });

  it("the buffer has one cell past the box's far side on each axis (513 x 513 for the unit box)", () => {
    // Dots (splatted, no cell centre inside) in column 512, the last, still count; in column 513 they are off the buffer.
    expect(run([front(dot(512.2, 30.2), 0.75), front(dot(512.3, 30.3), 0.25)], { present: FRONT }).hidden).toBe(1);
    expect(run([front(dot(513.2, 30.2), 0.75), front(dot(513.3, 30.3), 0.25)], { present: FRONT }).hidden).toBe(0);
    expect(run([front(dot(30.2, 512.2), 0.75), front(dot(30.3, 512.3), 0.25)], { present: FRONT }).hidden).toBe(1);
    expect(run([front(dot(30.2, 513.2), 0.75), front(dot(30.3, 513.3), 0.25)], { present: FRONT }).hidden).toBe(0);
  });

  it("before the box: a centroid within one cell of the edge truncates into cell 0, further out is skipped", () => {
    expect(run([front(dot(-0.5, 30.5), 0.75), front(dot(-0.7, 30.7), 0.25)], { present: FRONT }).hidden).toBe(1);
    expect(run([front(dot(-1.5, 30.5), 0.75), front(dot(-1.7, 30.7), 0.25)], { present: FRONT }).hidden).toBe(0);
    expect(run([front(dot(30.5, -0.5), 0.75), front(dot(30.7, -0.7), 0.25)], { present: FRONT }).hidden).toBe(1);
    expect(run([front(dot(30.5, -1.5), 0.75), front(dot(30.7, -1.7), 0.25)], { present: FRONT }).hidden).toBe(0);
  });

  it("side views span z: the left view reads z from minZ, the right view from maxZ", () => {
    // Occluder at x = 0.2 (left view) covering z up to 0.5 only; a dot behind it at z = 0.25
    // is hidden, one at z = 0.75 is not. The right view mirrors: occluder at x = 0.8 over z >= 0.5.
    const plate = (x: number, nx: number, z0: number, z1: number): Tri => ({
      v: [
        [x, 0.9, z0],
        [x, 0.1, z0],
        [x, 0.5, z1],
      ],
      n: [nx, 0, 0],
    });
    const spot = (x: number, nx: number, z: number): Tri => ({
      v: [
        [x, 0.5, z],
        [x, 0.5 + 0.1 * CS, z],
        [x, 0.5, z + 0.1 * CS],
      ],
      n: [nx, 0, 0],
    });
    const LEFT = [false, false, true, false],
      RIGHT = [false, false, false, true];
    expect(run([plate(0.2, -1, 0, 0.5), spot(0.8, -1, 0.2)], { present: LEFT }).hidden).toBe(1);
    expect(run([plate(0.2, -1, 0, 0.5), spot(0.8, -1, 0.75)], { present: LEFT }).hidden).toBe(0);
    expect(run([plate(0.8, 1, 1, 0.5), spot(0.2, 1, 0.8)], { present: RIGHT }).hidden).toBe(1);
    expect(run([plate(0.8, 1, 1, 0.5), spot(0.2, 1, 0.25)], { present: RIGHT }).hidden).toBe(0);
  });
});

describe("penaliseOccluded: each view's image axes on an uneven box", () => {
  // Box x 0.1..0.8, y -0.5..0.5, z 0.3..1: cell 1/512 (the height), 360 x 513 cells; the
  // horizontal span (0.7 = 358.4 cells) is not a whole number of cells, so a mirrored axis moves
  // the cell edges.
  const B: MeshBox = { minX: 0.1, maxX: 0.8, minY: -0.5, maxY: 0.5, minZ: 0.3, maxZ: 1 };
  // View k: horizontal axis (x, x, z, z) counted from (minX, maxX, minZ, maxZ) inwards, rows from
  // maxY down, depth towards the camera (+z, -z, -x, +x).
  const AX = [0, 0, 2, 2],
    SIGN = [1, -1, 1, -1],
    DAX = [2, 2, 0, 0],
    DSIGN = [1, -1, -1, 1];
  const LO = [B.minX, B.minX, B.minZ, B.minZ],
    HI = [B.maxX, B.maxX, B.maxZ, B.maxZ];
  /** Triangle in view k's cells (a, r) at depth dd towards the camera, facing it. */
  const inView = (k: number, cells: [number, number][], dd: number): Tri => {
    const v = cells.map(([a, r]) => {
      const p: V3 = [0, 0, 0];
      p[AX[k]!] = SIGN[k]! > 0 ? LO[k]! + a * CS : HI[k]! - a * CS;
      p[1] = B.maxY - r * CS;
      p[DAX[k]!] = DSIGN[k]! * dd;
      return p;
    }) as [V3, V3, V3];
    const n: V3 = [0, 0, 0];
    n[DAX[k]!] = DSIGN[k]!;
    return { v, n };
  };
  const only = (k: number) => [0, 1, 2, 3].map((i) => i === k);
  // Occluder over a >= 100.2 (cells whose centre is at least 100.2: columns 100 and up).
  const right: [number, number][] = [
    [100.2, 0],
    [100.2, 400],
    [500, 200],
  ];
  // Occluder over r >= 100.2 (rows 100 and down).
  const below: [number, number][] = [
    [0, 100.2],
    [400, 100.2],
    [200, 500],
  ];

  for (const k of [0, 1, 2, 3]) {
    it(`view ${k}: a dot at column 100.1 behind an occluder from 100.2 on is hidden, at 99.9 not; the same for rows`, () => {
      const at = (occ: [number, number][], a: number, r: number) =>
        run([inView(k, occ, 0.5), inView(k, dot(a, r), 0.2)], { box: B, present: only(k) });
      expect(at(right, 100.1, 200.5).score[4 + k]).toBe(0.75);
      expect(at(right, 99.9, 200.5).hidden).toBe(0);
      expect(at(below, 200.5, 100.1).hidden).toBe(1);
      expect(at(below, 200.5, 99.9).hidden).toBe(0);
    });
  }

  it("sub-cell triangles land in their own cell of the uneven buffer (row stride 360)", () => {
    const pair = (a: number, r: number) =>
      run([inView(0, dot(a, r), 0.5), inView(0, dot(a + 0.1, r + 0.1), 0.2)], { box: B, present: only(0) });
    expect(pair(200.2, 300.2).hidden).toBe(1);
    expect(pair(350.2, 500.2).hidden).toBe(1);
  });
});

describe("penaliseOccluded: rasterisation details", () => {
  const FRONT = [true, false, false, false];

  it("a cell centre exactly on an occluder's slanted edge is covered, the next one out is not, whichever vertex is first", () => {
    // Occluder (0,0), (200,0), (0,200): edge a + r = 200. Cell (99, 100) has its centre (99.5, 100.5)
    // on the edge; cell (100, 100) centre sums to 201, outside (but inside the bounding box).
    const A: [number, number] = [0, 0],
      Bv: [number, number] = [200, 0],
      C: [number, number] = [0, 200];
    for (const order of [
      [A, Bv, C],
      [Bv, C, A],
      [C, A, Bv],
    ]) {
      expect(run([front(order, 0.75), front(dot(99.2, 100.2), 0.25)], { present: FRONT }).hidden).toBe(1);
      expect(run([front(order, 0.75), front(dot(100.2, 100.2), 0.25)], { present: FRONT }).hidden).toBe(0);
    }
  });

  it("a triangle one cell wide or one cell tall is rasterised along its length, not splatted", () => {
    const tall: [number, number][] = [
      [50.3, 0],
      [50.7, 0],
      [50.5, 200],
    ];
    expect(run([front(tall, 0.75), front(dot(50.2, 10.2), 0.25)], { present: FRONT }).hidden).toBe(1);
    const wide: [number, number][] = [
      [0, 50.3],
      [0, 50.7],
      [200, 50.5],
    ];
    expect(run([front(wide, 0.75), front(dot(10.2, 50.2), 0.25)], { present: FRONT }).hidden).toBe(1);
  });

  it("an occluder reaching past the box still fills the last column and row", () => {
    const corner: [number, number][] = [
      [300, 300],
      [700, 300],
      [300, 700],
    ];
    expect(run([front(corner, 0.75), front(dot(512.2, 400.2), 0.25)], { present: FRONT }).hidden).toBe(1);
    expect(run([front(corner, 0.75), front(dot(400.2, 512.2), 0.25)], { present: FRONT }).hidden).toBe(1);
  });

  it("the behind face is looked up at the cell of its centroid, the mean of its three corners", () => {
    // Occluder over rows up to 100 (top edge); a spread face with rows 90, 90, 120.3 has its centroid
    // at row 100.1: not covered. Columns likewise against the occluder over columns up to 100.
    const top: [number, number][] = [
      [0, 100],
      [400, 100],
      [200, -300],
    ];
    const spreadR: [number, number][] = [
      [190, 90],
      [210, 90],
      [200.6, 120.3],
    ];
    expect(run([front(top, 0.75), front(spreadR, 0.25)], { present: FRONT }).hidden).toBe(0);
    const left: [number, number][] = [
      [100, 0],
      [100, 400],
      [-300, 200],
    ];
    const spreadA: [number, number][] = [
      [90, 190],
      [90, 210],
      [120.3, 200.6],
    ];
    expect(run([front(left, 0.75), front(spreadA, 0.25)], { present: FRONT }).hidden).toBe(0);
    // Moved 0.2 cell back in, both are hidden.
    expect(
      run([front(top, 0.75), front(spreadR.map(([a, r]) => [a, r - 0.2]) as [number, number][], 0.25)], { present: FRONT }).hidden,
    ).toBe(1);
    expect(
      run([front(left, 0.75), front(spreadA.map(([a, r]) => [a - 0.2, r]) as [number, number][], 0.25)], { present: FRONT }).hidden,
    ).toBe(1);
  });

  it("a centroid off the buffer's side is skipped, not read from the neighbouring row", () => {
    // Column 513 (= width) of row 30 would alias row 31's column 0; column -1 row 29's last column.
    expect(run([front(BIG, 0.75), front(dot(513.2, 30.2), 0.25)], { present: FRONT }).hidden).toBe(0);
    const topRight: [number, number][] = [
      [400, 0],
      [600, 0],
      [600, 200],
    ];
    expect(run([front(topRight, 0.75), front(dot(-1.2, 30.2), 0.25)], { present: FRONT }).hidden).toBe(0);
  });
});
