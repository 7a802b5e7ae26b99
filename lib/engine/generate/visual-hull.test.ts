import { describe, expect, it } from "vitest";
import { InputContentError } from "./errors";
import { inflateHeights } from "./inflate";
import { checkManifold, signedVolume, taubinSmooth } from "./mesh-ops";
import { makeWellComposed, relaxToField, visualHull, voxelSurface, type ViewSilhouette } from "./visual-hull";

const count = (a: Uint8Array) => a.reduce((s, v) => s + v, 0);
const cube = (n: number, set: [number, number, number][]) => {
  const occ = new Uint8Array(n * n * n);
  for (const [x, y, z] of set) occ[(z * n + y) * n + x] = 1;
  return occ;
};

describe("makeWellComposed", () => {
  it("fills the 2x2x2 block of two voxels touching only at an edge or only at a corner, and nothing else", () => {
    for (const other of [
      [1, 1, 0], // edge (in z)
      [1, 0, 1], // edge (in y)
      [0, 1, 1], // edge (in x)
      [1, 1, 1], // corner
    ] as [number, number, number][]) {
      const occ = cube(3, [[0, 0, 0], other]);
      makeWellComposed(occ, 3, 3, 3);
      const want = new Uint8Array(27);
      for (let z = 0; z < 2; z++) for (let y = 0; y < 2; y++) for (let x = 0; x < 2; x++) want[(z * 3 + y) * 3 + x] = 1;
      expect(Array.from(occ), `other ${other}`).toEqual(Array.from(want));
    }
  });

  it("the same in the far corner of the grid (last block of the scan) and for an unset pair in a full block", () => {
    const occ = cube(3, [
      [1, 1, 1],
      [2, 2, 2],
    ]);
    makeWellComposed(occ, 3, 3, 3);
    expect(count(occ)).toBe(8);
    expect(occ[0]).toBe(0);
    expect(occ[26]).toBe(1);
    // 2x2x2 all set but (0,0,0) and (1,1,0): the unset voxels are not face-connected -> filled.
    const full = new Uint8Array(8).fill(1);
    full[0] = full[3] = 0;
    makeWellComposed(full, 2, 2, 2);
    expect(Array.from(full)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it("leaves face-connected patterns alone: one voxel, a face pair, an L, a full block, a hole through a plate", () => {
    const cases: [number, number, number][][] = [
      [[1, 1, 1]],
      [
        [0, 0, 0],
        [1, 0, 0],
      ],
      [
        [0, 0, 0],
        [1, 0, 0],
        [1, 1, 0],
      ],
    ];
    for (const c of cases) {
      const occ = cube(3, c);
      const before = Array.from(occ);
      makeWellComposed(occ, 3, 3, 3);
      expect(Array.from(occ)).toEqual(before);
    }
    const plate = new Uint8Array(27);
    for (let y = 0; y < 3; y++) for (let x = 0; x < 3; x++) plate[(1 * 3 + y) * 3 + x] = x === 1 && y === 1 ? 0 : 1;
    const before = Array.from(plate);
    makeWellComposed(plate, 3, 3, 3);
    expect(Array.from(plate)).toEqual(before);
  });

  it("repeats passes until stable: a fill late in the scan makes an earlier block bad", () => {
    // 3x3x2: (0,0,0) alone, and (2,2,0) / (2,1,1) bad in the block at (1,1,0). Pass 1 fills that block, which puts
    // (1,1,0) diagonal to (0,0,0): pass 2 fills the block at the origin. 8 + 8 - 2 shared = 14 voxels.
    const occ = new Uint8Array(18);
    const set = (x: number, y: number, z: number) => (occ[(z * 3 + y) * 3 + x] = 1);
    set(0, 0, 0);
    set(2, 2, 0);
    set(2, 1, 1);
    makeWellComposed(occ, 3, 3, 2);
    expect(count(occ)).toBe(14);
    for (const [x, y] of [
      [2, 0],
      [0, 2],
    ] as const)
      for (let z = 0; z < 2; z++) expect(occ[(z * 3 + y) * 3 + x], `${x},${y},${z}`).toBe(0);
  });
});

/** Outward test: every triangle's normal points away from the centre of the voxel it bounds. */
const normalsOutward = (p: Float32Array, idx: Uint32Array, inside: (c: number[]) => number[]) => {
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t]! * 3, idx[t + 1]! * 3, idx[t + 2]! * 3];
    const u = [0, 1, 2].map((k) => p[b + k]! - p[a + k]!),
      w = [0, 1, 2].map((k) => p[c + k]! - p[a + k]!);
    const n = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
    const centroid = [0, 1, 2].map((k) => (p[a + k]! + p[b + k]! + p[c + k]!) / 3);
    const o = inside(centroid);
    const dot = n.reduce((s, v, k) => s + v * (centroid[k]! - o[k]!), 0);
    if (!(dot > 0)) return false;
    // Unit right triangles on the grid: |n| = 1.
    if (Math.abs(Math.hypot(n[0]!, n[1]!, n[2]!) - 1) > 1e-9) return false;
  }
  return true;
};

describe("voxelSurface", () => {
  it("of one voxel: the unit cube, 8 corners, 12 outward triangles, volume 1", () => {
    const s = voxelSurface(new Uint8Array([1]), 1, 1, 1, 100)!;
    expect(s.indices.length / 3).toBe(12);
    expect(s.positions.length / 3).toBe(8);
    const corners = new Set<string>();
    for (let v = 0; v < 8; v++) corners.add(Array.from(s.positions.slice(v * 3, v * 3 + 3)).join(","));
    expect([...corners].sort()).toEqual(["0,0,0", "0,0,1", "0,1,0", "0,1,1", "1,0,0", "1,0,1", "1,1,0", "1,1,1"]);
    // First face is +X: base (1,0,0), u = +Y, w = +Z.
    expect(Array.from(s.positions.slice(0, 12))).toEqual([1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1]);
    expect(Array.from(s.indices.slice(0, 6))).toEqual([0, 1, 2, 0, 2, 3]);
    expect(checkManifold(s.indices)).toMatchObject({ closed: true, oriented: true });
    expect(signedVolume(s.positions, s.indices)).toBeCloseTo(1, 12);
    expect(normalsOutward(s.positions, s.indices, () => [0.5, 0.5, 0.5])).toBe(true);
  });

  it("of a voxel inside a bigger grid sits on its own corners and is bounded by empty neighbours", () => {
    const s = voxelSurface(cube(3, [[1, 2, 0]]), 3, 3, 3, 100)!;
    expect(s.indices.length / 3).toBe(12);
    for (let v = 0; v < 8; v++) {
      expect([1, 2]).toContain(s.positions[v * 3]);
      expect([2, 3]).toContain(s.positions[v * 3 + 1]);
      expect([0, 1]).toContain(s.positions[v * 3 + 2]);
    }
    expect(normalsOutward(s.positions, s.indices, () => [1.5, 2.5, 0.5])).toBe(true);
  });

  it("of two face neighbours along each axis: the shared face removed (10 quads, 12 corners, volume 2)", () => {
    for (const [nx, ny, nz] of [
      [2, 1, 1],
      [1, 2, 1],
      [1, 1, 2],
    ]) {
      const s = voxelSurface(new Uint8Array([1, 1]), nx!, ny!, nz!, 100)!;
      expect(s.indices.length / 3).toBe(20);
      expect(s.positions.length / 3).toBe(12);
      expect(checkManifold(s.indices)).toMatchObject({ closed: true, oriented: true });
      expect(signedVolume(s.positions, s.indices)).toBeCloseTo(2, 12);
      expect(
        normalsOutward(s.positions, s.indices, (c) => c.map((v, k) => ([nx, ny, nz][k] === 2 ? Math.min(Math.max(v, 0.5), 1.5) : 0.5))),
      ).toBe(true);
    }
  });

  it("of edge-touching voxels shares the edge's two corners (14 vertices, 24 triangles)", () => {
    const s = voxelSurface(new Uint8Array([1, 0, 0, 1]), 2, 2, 1, 100)!;
    expect(s.indices.length / 3).toBe(24);
    expect(s.positions.length / 3).toBe(14);
  });

  it("returns null once the triangles pass maxTriangles (checked after each voxel); empty set gives empty arrays", () => {
    expect(voxelSurface(new Uint8Array([1]), 1, 1, 1, 12)).not.toBeNull();
    expect(voxelSurface(new Uint8Array([1]), 1, 1, 1, 11)).toBeNull();
    // Two voxels: 10 triangles after the first, 20 after the second.
    expect(voxelSurface(new Uint8Array([1, 1]), 2, 1, 1, 20)).not.toBeNull();
    expect(voxelSurface(new Uint8Array([1, 1]), 2, 1, 1, 19)).toBeNull();
    expect(voxelSurface(new Uint8Array([1, 1]), 2, 1, 1, 9)).toBeNull();
    const e = voxelSurface(new Uint8Array(8), 2, 2, 2, 0)!;
    expect(e.positions.length + e.indices.length).toBe(0);
  });
});

describe("relaxToField", () => {
  it("one voxel: the blurred corner field is 1/8 q(x) q(y) q(z), q = [1/4, 3/4, 3/4, 1/4]; each corner steps the 0.75 cap towards the centre", () => {
    // At corner (1,1,1): f = 27/512, gradient (9/512)(1,1,1), Newton step t = (1/2 - f) / |g|^2 -> 14.7 voxels: capped.
    const occ = cube(3, [[1, 1, 1]]);
    const s = voxelSurface(occ, 3, 3, 3, 100)!;
    const p = Float32Array.from(s.positions);
    relaxToField(p, occ, 3, 3, 3);
    const d = 0.75 / Math.sqrt(3);
    for (let k = 0; k < p.length; k++) expect(p[k]).toBeCloseTo(s.positions[k] === 1 ? 1 + d : 2 - d, 6);
    // Corners on the outer layer (x, y or z = 0 or 3) are never moved, though the field there is not flat.
    const edge = new Float32Array([0, 1, 1, 1, 0, 1, 1, 1, 0, 3, 2, 2, 2, 3, 2, 2, 2, 3]);
    relaxToField(edge, occ, 3, 3, 3);
    expect(Array.from(edge)).toEqual([0, 1, 1, 1, 0, 1, 1, 1, 0, 3, 2, 2, 2, 3, 2, 2, 2, 3]);
  });

  it("leaves a flat face where the field is exactly 0.5; skips the outer corner layer and points of zero gradient", () => {
    // Half-space x < 3 in 8^3: along x the corner field is [1/2, 1, 1, 1/2, 0, ...], blurred at x = 3:
    // 1/4 + 1/4 + 0 = 1/2, so the face x = 3 stays (away from the y, z borders).
    const n = 8,
      occ = new Uint8Array(n * n * n);
    for (let z = 0; z < n; z++) for (let y = 0; y < n; y++) for (let x = 0; x < 3; x++) occ[(z * n + y) * n + x] = 1;
    // (3,4,4) face; (2,4,4) inside: f 7/8, gradient -3/16 -> t = -(3/8) / (9/256), len 2: capped to +0.75 in x;
    // (0,4,4) and (3,8,4) on the border layer: kept; (6,4,4): f = 0 and gradient 0: kept.
    const p = new Float32Array([3, 4, 4, 2, 4, 4, 0, 4, 4, 3, 8, 4, 6, 4, 4, 3, 4, 7, 3, 4, 8]);
    relaxToField(p, occ, n, n, n);
    expect(Array.from(p.slice(0, 3))).toEqual([3, 4, 4]);
    expect(p[3]).toBeCloseTo(2.75, 6);
    expect(Array.from(p.slice(4, 6))).toEqual([4, 4]);
    expect(Array.from(p.slice(6, 15))).toEqual([0, 4, 4, 3, 8, 4, 6, 4, 4]);
    // (3,4,7) is inside (z = 7 = vz - 2): near the z border the field drops, so it moves (towards -x and -z).
    expect(p[15]).toBeLessThan(3);
    expect(p[17]).toBeLessThan(7);
    expect(Array.from(p.slice(18))).toEqual([3, 4, 8]);
  });

  it("a voxel on the grid's last layer: the blur treats beyond the border as 0, it does not wrap to the next row", () => {
    // Voxel (2,1,1) of 3^3: corners x = 2, 3 carry 1/8. Figures measured: corner (1,1,1) steps to
    // (1.7155, 1.1590, 1.1590), (2,1,1) the 0.75 cap along (1,1,1) / sqrt 3 (towards the centre 2.5, 1.5, 1.5).
    const occ = cube(3, [[2, 1, 1]]);
    const p = new Float32Array([1, 1, 1, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 2]);
    relaxToField(p, occ, 3, 3, 3);
    const d = 0.75 / Math.sqrt(3);
    const want = [1.7155, 1.159, 1.159, 2 + d, 1 + d, 1 + d, 1.7155, 1.841, 1.841, 2 + d, 2 - d, 2 - d, 2 + d, 1 + d, 2 - d];
    for (let k = 0; k < want.length; k++) expect(p[k], `coordinate ${k}`).toBeCloseTo(want[k]!, 4);
    // Plus voxel (0,2,1) on the opposite face: the last corner of a row must not see the first of the next row.
    const both = cube(3, [
      [2, 1, 1],
      [0, 2, 1],
    ]);
    const q = new Float32Array([1, 1, 1, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 2]);
    relaxToField(q, both, 3, 3, 3);
    const measured = [
      1.38495, 1.60492, 1.21997, 2.19405, 1.58215, 1.43122, 1.2385, 2.318, 1.364, 1.7615, 1.682, 1.364, 2.19405, 1.58215, 1.56878,
    ];
    for (let k = 0; k < measured.length; k++) expect(q[k], `coordinate ${k}`).toBeCloseTo(measured[k]!, 4);
  });

  it("moves by a single uncapped Newton step near a bump (figures measured, steps < 0.75)", () => {
    // Half-space x < 3 in 6^3 plus voxel (3,2,2).
    const N = 6,
      occ = new Uint8Array(N * N * N);
    for (let z = 0; z < N; z++) for (let y = 0; y < N; y++) for (let x = 0; x < 3; x++) occ[(z * N + y) * N + x] = 1;
    occ[(2 * N + 2) * N + 3] = 1;
    const p = new Float32Array([3, 3, 3, 3, 4, 4, 4, 2, 2]);
    relaxToField(p, occ, N, N, N);
    const want = [3.1468, 3.0072, 3.0072, 3.0154, 4.0016, 4.0016, 3.2567, 2.0705, 2.0705];
    for (let k = 0; k < 9; k++) expect(p[k]).toBeCloseTo(want[k]!, 4);
  });
});

// ---- visualHull ----

/** A w x w mask with `f(x, y)` set. */
const mask = (w: number, f: (x: number, y: number) => boolean) => {
  const m = new Uint8Array(w * w);
  for (let y = 0; y < w; y++) for (let x = 0; x < w; x++) m[y * w + x] = f(x, y) ? 1 : 0;
  return m;
};
const W = 20;
/** Pixels 2..17 in both directions: 16 x 16. */
const square = mask(W, (x, y) => x >= 2 && x <= 17 && y >= 2 && y <= 17);
const disc = mask(W, (x, y) => (x - 9.5) ** 2 + (y - 9.5) ** 2 <= 64);
/** The lower half (rows 10..17) full width, the upper half (rows 2..9) only image columns 2..9. */
const ell = mask(W, (x, y) => x >= 2 && x <= 17 && y >= 2 && y <= 17 && (y >= 10 || x <= 9));
const view = (v: ViewSilhouette["view"], m: Uint8Array): ViewSilhouette => ({ view: v, mask: m, width: W, height: W });

/**
 * With 16 px tall silhouettes, heightMm 16 and 16 cells a voxel is one pixel: nx = ny = nz = 16 + 2 x 2 padding, and
 * voxel (ix, iy, iz) samples image column ix - 2 + 2 and row 17 - (iy - 2) of the front (left: column iz; back and
 * right: mirrored). The reference builds the surface of an expected occupancy the same way visualHull does.
 */
function reference(occ: Uint8Array, n: [number, number, number], Xh: number, Zh: number, vs: number, smoothing = 6) {
  makeWellComposed(occ, ...n);
  const s = voxelSurface(occ, ...n, Infinity)!;
  relaxToField(s.positions, occ, ...n);
  taubinSmooth(s.positions, s.indices, smoothing);
  const p = s.positions;
  for (let i = 0; i < p.length; i += 3) {
    p[i] = -Xh + (p[i]! - 2) * vs;
    p[i + 1] = (p[i + 1]! - 2) * vs;
    p[i + 2] = -Zh + (p[i + 2]! - 2) * vs;
  }
  return s;
}
const grid = (f: (ix: number, iy: number, iz: number) => boolean, n = 20) => {
  const occ = new Uint8Array(n * n * n);
  for (let iz = 0; iz < n; iz++)
    for (let iy = 0; iy < n; iy++) for (let ix = 0; ix < n; ix++) occ[(iz * n + iy) * n + ix] = f(ix, iy, iz) ? 1 : 0;
  return occ;
};
const inBox = (i: number) => i >= 2 && i <= 17;
/** Front-mask pixel under voxel column (ix, iy). */
const px = (m: Uint8Array, ix: number, iy: number) => inBox(ix) && inBox(iy) && m[(17 - (iy - 2)) * W + ix]! > 0;
const opts = { cells: 16, maxTriangles: Infinity, heightMm: 16 };

function expectHull(views: ViewSilhouette[], occ: Uint8Array, o: Partial<typeof opts> & { smoothing?: number } = {}) {
  const h = visualHull(views, { ...opts, ...o });
  const r = reference(occ, [20, 20, 20], 8, 8, 1, o.smoothing ?? 6);
  expect(h.indices.length).toBe(r.indices.length);
  expect(Array.from(h.indices)).toEqual(Array.from(r.indices));
  expect(Array.from(h.positions)).toEqual(Array.from(r.positions));
  return h;
}

describe("visualHull", () => {
  it("of four squares is the 16^3 box of voxels: 6 x 256 x 2 triangles, closed, inside +-8 mm by 0..16 mm", () => {
    const h = expectHull(
      (["front", "back", "left", "right"] as const).map((v) => view(v, square)),
      grid((x, y, z) => inBox(x) && inBox(y) && inBox(z)),
    );
    expect(h.indices.length / 3).toBe(3072);
    expect(checkManifold(h.indices)).toMatchObject({ closed: true, oriented: true });
    // front uv: u = X / (s w) + cx / w with s = 1 mm / px, cx = 10; v = -Y / (s h) + 18 / h.
    expect(h.frontUv).toEqual({ ax: 1 / 20, bx: 0.5, ay: -1 / 20, by: 0.9 });
  });

  it("a disc from the front and a square from the side give a cylinder along Z", () => {
    expectHull(
      [view("front", disc), view("left", square)],
      grid((x, y, z) => px(disc, x, y) && inBox(z)),
    );
  });

  it("left: image x -> +Z; right: image x -> -Z (an L-shaped side view tells them apart)", () => {
    // Upper half of the L occupies image columns 2..9: from the left that is iz 2..9 (Z < 0), from the right iz 10..17.
    const lower = (y: number) => y <= 9; // iy 2..9 = image rows 17..10
    expectHull(
      [view("front", square), view("left", ell)],
      grid((x, y, z) => inBox(x) && inBox(y) && inBox(z) && (lower(y) || z <= 9)),
    );
    expectHull(
      [view("front", square), view("right", ell)],
      grid((x, y, z) => inBox(x) && inBox(y) && inBox(z) && (lower(y) || z >= 10)),
    );
    // Both with the same image: the upper halves do not overlap, only the lower slab is left.
    expectHull(
      [view("front", square), view("left", ell), view("right", ell)],
      grid((x, y, z) => inBox(x) && inBox(y) && inBox(z) && lower(y)),
    );
  });

  it("back: image x -> -X, so the back view of an L is its mirror image; the unmirrored one carves the upper half away", () => {
    const mirrored = mask(W, (x, y) => ell[y * W + (W - 1 - x)]! > 0);
    const withSide = (back: Uint8Array) => [view("front", ell), view("back", back), view("left", square)];
    expectHull(
      withSide(mirrored),
      grid((x, y, z) => px(ell, x, y) && inBox(z)),
    );
    expectHull(
      withSide(ell),
      grid((x, y, z) => px(ell, x, y) && y <= 9 && inBox(z)),
    );
  });

  it("without a side view the depth is the front's inflation (offset 0.5): |Z| <= height x voxel", () => {
    const front2d = new Uint8Array(400);
    for (let iy = 0; iy < 20; iy++) for (let ix = 0; ix < 20; ix++) front2d[iy * 20 + ix] = px(square, ix, iy) ? 1 : 0;
    const hz = inflateHeights(front2d, 20, 20, 0.5);
    const Zh = Math.max(...hz); // 16x16 square: centre voxels 8 from the outside: 7.5 (the 7.5^2 balls' union)
    expect(Zh).toBe(7.5);
    const nz = Math.ceil(2 * Zh) + 4; // 19
    const occ = new Uint8Array(20 * 20 * nz);
    let cnt = 0;
    for (let iz = 0; iz < nz; iz++)
      for (let iy = 0; iy < 20; iy++)
        for (let ix = 0; ix < 20; ix++)
          if (front2d[iy * 20 + ix] && Math.abs(-Zh + iz - 2 + 0.5) <= hz[iy * 20 + ix]!) {
            occ[(iz * 20 + iy) * 20 + ix] = 1;
            cnt++;
          }
    expect(cnt).toBe(2392); // measured with the reference above
    const h = visualHull([view("front", square)], opts);
    const r = reference(occ, [20, 20, nz], 8, Zh, 1);
    expect(Array.from(h.positions)).toEqual(Array.from(r.positions));
    expect(Array.from(h.indices)).toEqual(Array.from(r.indices));
    // A back view alone bounds nothing in depth: same result when it agrees.
    const hb = visualHull([view("front", square), view("back", square)], opts);
    expect(Array.from(hb.positions)).toEqual(Array.from(h.positions));
  });

  it("cells below 16 count as 16; heightMm scales the result; smoothing defaults to 6 iterations", () => {
    const views = [view("front", square), view("left", square)];
    const a = visualHull(views, opts);
    expect(Array.from(visualHull(views, { ...opts, cells: 5 }).positions)).toEqual(Array.from(a.positions));
    const b = visualHull(views, { ...opts, heightMm: 32 });
    for (let k = 0; k < a.positions.length; k += 97) expect(b.positions[k]).toBeCloseTo(2 * a.positions[k]!, 4);
    expect(Array.from(visualHull(views, { ...opts, smoothing: 6 }).positions)).toEqual(Array.from(a.positions));
    expectHull(
      views,
      grid((x, y, z) => inBox(x) && inBox(y) && inBox(z)),
      { smoothing: 0 },
    );
  });

  it("over the triangle budget retries with 0.8 x the cells (not below 16), then fails", () => {
    const views = [view("front", square), view("left", square)];
    // 20 cells: vs = 0.8, a 20^3 box = 4800 triangles > 4000 -> 16 cells: 3072.
    const h = visualHull(views, { ...opts, cells: 20, maxTriangles: 4000 });
    expect(Array.from(h.positions)).toEqual(Array.from(visualHull(views, opts).positions));
    expect(visualHull(views, { ...opts, cells: 20, maxTriangles: 4800 }).indices.length / 3).toBe(4800);
    // Not "the silhouettes do not intersect" (they do): the budget is what failed.
    expect(() => visualHull(views, { ...opts, maxTriangles: 3071 })).toThrow("the hull needs more than 3071 triangles even at 16 cells");
  });

  it("silhouettes touching the image border give the same hull as with a margin (no reads across rows)", () => {
    const full = new Uint8Array(16 * 16).fill(1);
    const edge = (v: ViewSilhouette["view"]): ViewSilhouette => ({ view: v, mask: full, width: 16, height: 16 });
    expectHull(
      [edge("front"), edge("left")],
      grid((x, y, z) => inBox(x) && inBox(y) && inBox(z)),
    );
    expectHull(
      [edge("front"), edge("back"), edge("right")],
      grid((x, y, z) => inBox(x) && inBox(y) && inBox(z)),
    );
  });

  it("scales each view to the common height: 2 mm per pixel, voxels 3 mm from the widest side view, a notch on top", () => {
    // heightMm 32, all views 16 px tall: s = 2 mm / px. Front: 10 x 16 image, columns 1..8 (16 mm wide, cx = 5),
    // rows 0..4 only columns 1..4. Left: 24 px wide (Zh = 24 mm), right: 20 px (|Z| <= 20).
    // vs = max(16, 32, 48) / 16 = 3 mm; nx = ceil(16 / 3) + 4 = 10, ny = ceil(32 / 3) + 4 = 15, nz = 16 + 4 = 20.
    // X(ix) = -8 + 3 (ix - 1.5): ix 2..6 -> -6.5 .. 5.5 (pixels 1, 3, 4, 6, 7); the notch keeps ix 2..4 (pixels 1, 3, 4).
    // Y(iy) = 3 (iy - 1.5): iy 2..12 -> 1.5 .. 31.5, rows floor(16 - Y / 2) = 15 .. 0; rows <= 4 from iy 9.
    // Z(iz) = -24 + 3 (iz - 1.5): the right view keeps |Z| <= 20: iz 3..16.
    const front = new Uint8Array(10 * 16);
    for (let y = 0; y < 16; y++) for (let x = 1; x <= (y <= 4 ? 4 : 8); x++) front[y * 10 + x] = 1;
    const views: ViewSilhouette[] = [
      { view: "front", mask: front, width: 10, height: 16 },
      { view: "left", mask: new Uint8Array(24 * 16).fill(1), width: 24, height: 16 },
      { view: "right", mask: new Uint8Array(20 * 16).fill(1), width: 20, height: 16 },
    ];
    const h = visualHull(views, { cells: 16, maxTriangles: Infinity, heightMm: 32 });
    const [nx, ny, nz] = [10, 15, 20];
    const occ = new Uint8Array(nx * ny * nz);
    for (let iz = 3; iz <= 16; iz++)
      for (let iy = 2; iy <= 12; iy++) for (let ix = 2; ix <= (iy >= 9 ? 4 : 6); ix++) occ[(iz * ny + iy) * nx + ix] = 1;
    const r = reference(occ, [nx, ny, nz], 8, 24, 3);
    expect(Array.from(h.indices)).toEqual(Array.from(r.indices));
    expect(Array.from(h.positions)).toEqual(Array.from(r.positions));
    // u = X / (2 * 10) + 5 / 10, v = -Y / (2 * 16) + 16 / 16.
    expect(h.frontUv).toEqual({ ax: 1 / 20, bx: 0.5, ay: -1 / 32, by: 1 });
  });

  it("front only at 2 mm per voxel: the same carving as at 1 mm, every coordinate doubled (depth hmax x voxel)", () => {
    const a = visualHull([view("front", square)], opts),
      b = visualHull([view("front", square)], { ...opts, heightMm: 32 });
    expect(Array.from(b.indices)).toEqual(Array.from(a.indices));
    for (let k = 0; k < a.positions.length; k++) expect(b.positions[k]).toBeCloseTo(2 * a.positions[k]!, 4);
  });

  it("17 cells over budget retry at 16 (floor(17 x 0.8) = 13, raised to 16)", () => {
    const views = [view("front", square), view("left", square)];
    // 17 cells: a 17^3 box = 3468 triangles > 3400.
    const h = visualHull(views, { ...opts, cells: 17, maxTriangles: 3400 });
    expect(Array.from(h.positions)).toEqual(Array.from(visualHull(views, opts).positions));
  });

  it("names what is wrong with the input", () => {
    expect(() => visualHull([view("left", square)], opts)).toThrow("the front view is required");
    expect(() => visualHull([view("front", new Uint8Array(W * W))], opts)).toThrow("the front image has no foreground");
    expect(() => visualHull([view("front", square), view("right", new Uint8Array(W * W))], opts)).toThrow(
      "the right image has no foreground",
    );
    // Two quadrants on a diagonal, the same image from the back: the back's upper quadrant lands on X > 0, the
    // front's on X < 0 (and the lower ones the other way round), nothing is left.
    const diag = mask(W, (x, y) => inBox(x) && inBox(y) && x <= 9 === y <= 9);
    const crossed = [view("front", diag), view("back", diag), view("left", square)];
    expect(() => visualHull(crossed, opts)).toThrow(InputContentError);
    expect(() => visualHull(crossed, opts)).toThrow("the silhouettes do not intersect");
    // Mirrored it agrees with the front.
    const mirrored = mask(W, (x, y) => diag[y * W + (W - 1 - x)]! > 0);
    expectHull(
      [view("front", diag), view("back", mirrored), view("left", square)],
      grid((x, y, z) => px(diag, x, y) && inBox(z)),
    );
  });
});
