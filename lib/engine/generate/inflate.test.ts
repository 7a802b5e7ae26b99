import { describe, expect, it } from "vitest";
import { InputContentError } from "./errors";
import { inflateHeights, inflateSilhouette } from "./inflate";
import { checkManifold, meshBounds, signedVolume } from "./mesh-ops";

/** A w x h mask with the rectangle [x0, x1] x [y0, y1] set. */
const rect = (w: number, h: number, x0: number, y0: number, x1: number, y1: number) => {
  const m = new Uint8Array(w * h);
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) m[y * w + x] = 1;
  return m;
};

describe("inflateHeights", () => {
  it("a 1-pixel strip is a tube of radius 1 (distance to the rows beside it), minus the offset, 0.01 at least", () => {
    // 5x3, row 1 set: every strip pixel is 1 from the outside rows; the grid border is not outline.
    const strip = rect(5, 3, 0, 1, 4, 1);
    expect(Array.from(inflateHeights(strip, 5, 3))).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
    expect(Array.from(inflateHeights(strip, 5, 3, 0.5).slice(5, 10))).toEqual([0.5, 0.5, 0.5, 0.5, 0.5]);
    // offset 1: r = max(0.01, 0) = 0.01, H = 1e-4, sqrt(max(1e-4, 1e-4)) = 0.01.
    const flat = inflateHeights(strip, 5, 3, 1);
    for (let x = 0; x < 5; x++) expect(flat[5 + x]).toBeCloseTo(0.01, 7);
    // offset 2 would give a negative radius: still 0.01.
    expect(inflateHeights(strip, 5, 3, 2)[7]).toBeCloseTo(0.01, 7);
    expect(inflateHeights(strip, 5, 3, 1)[0]).toBe(0);
  });

  it("a 5x5 square: the centre carries a ball of radius 3 and every pixel gets the union of the balls, sqrt(max_q d(q)^2 - |p - q|^2)", () => {
    // 7x7 with [1, 5]^2 set; centre (3, 3) is 3 from the outside ring. d = 2 on the inner ring, 1 on the outer one.
    const h = inflateHeights(rect(7, 7, 1, 1, 5, 5), 7, 7);
    const at = (x: number, y: number) => h[y * 7 + x]!;
    expect(at(3, 3)).toBe(3); // own ball 3
    expect(at(4, 3)).toBeCloseTo(Math.sqrt(8), 6); // centre ball: 9 - 1 beats own 2^2 = 4
    expect(at(4, 4)).toBeCloseTo(Math.sqrt(7), 6); // 9 - 2
    expect(at(5, 3)).toBeCloseTo(Math.sqrt(5), 6); // 9 - 4 beats own 1
    expect(at(5, 4)).toBe(2); // (4, 4) ball: 4 - 1 = 3 and centre 9 - 5 = 4: sqrt 4
    expect(at(5, 5)).toBeCloseTo(Math.sqrt(2), 6); // (4, 4) ball: 4 - 2 (centre: 9 - 8 = 1)
    for (let i = 0; i < 7; i++)
      for (const [x, y] of [
        [i, 0],
        [0, i],
        [i, 6],
        [6, i],
      ] as const)
        expect(at(x, y)).toBe(0);
    // offset 0.5 shrinks every radius: centre 2.5, (4, 3) 2.5^2 - 1 = 5.25, (5, 5) max(1.5^2 - 2, 0.5^2) = 0.25.
    const o = inflateHeights(rect(7, 7, 1, 1, 5, 5), 7, 7, 0.5);
    expect(o[3 * 7 + 3]).toBe(2.5);
    expect(o[3 * 7 + 4]).toBeCloseTo(Math.sqrt(5.25), 6);
    expect(o[5 * 7 + 5]).toBeCloseTo(0.5, 6);
    expect(o[3 * 7 + 5]).toBeCloseTo(1.5, 6); // centre 6.25 - 4 = 2.25 vs own 0.25
  });

  it("smoothing leaves a sphere as it was: disc of radius 20, sigma 1, 2, 3 (box radius 1, 2, 3; lift 2 (r^2 + r))", () => {
    const n = 41,
      disc = new Uint8Array(n * n);
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) disc[y * n + x] = (x - 20) ** 2 + (y - 20) ** 2 <= 400 ? 1 : 0;
    const raw = inflateHeights(disc, n, n);
    // Centre: the nearest outside pixel is 1 across and 20 along, sqrt(401) away.
    expect(raw[20 * n + 20]).toBeCloseTo(Math.sqrt(401), 5);
    for (const sigma of [1, 2, 3]) {
      const s = inflateHeights(disc, n, n, 0, sigma);
      for (const dx of [0, 1, 3, 10]) expect(s[20 * n + 20 + dx]).toBeCloseTo(raw[20 * n + 20 + dx]!, 3);
    }
  });

  it("smoothing rounds a square's creases, blending to the exact union towards the outline (reach 3 sqrt(r^2 + r))", () => {
    // 15x15 with a 9x9 square at [3, 11]^2: raw centre 5, its edge midpoint 3, corner sqrt 2.
    const sq = rect(15, 15, 3, 3, 11, 11);
    const raw = inflateHeights(sq, 15, 15),
      s = inflateHeights(sq, 15, 15, 0, 1);
    const at = (a: Float32Array, x: number, y: number) => a[y * 15 + x]!;
    expect(at(raw, 7, 7)).toBe(5);
    expect(at(raw, 3, 7)).toBe(3);
    expect(at(raw, 4, 5)).toBeCloseTo(Math.sqrt(12), 5); // centre ball 25 - 13
    // sigma 1 -> r = round((sqrt 5 - 1) / 2) = 1, lift 4, reach 3 sqrt 2. Figures measured (the crease along the
    // diagonals is lifted: the box mean of a max of paraboloids lies above it).
    expect(at(s, 7, 7)).toBeCloseTo(5.0005, 4);
    expect(at(s, 3, 7)).toBeCloseTo(3.0551, 4); // d = 1: weight t^2 (3 - 2t), t = 1 / (3 sqrt 2): 0.1405
    expect(at(s, 3, 3)).toBeCloseTo(1.5713, 4);
    expect(at(s, 4, 5)).toBeCloseTo(3.6006, 4);
    expect(at(s, 5, 5)).toBeCloseTo(4.2016, 4);
    expect(at(s, 2, 7)).toBe(0); // outside stays 0
    // sigma 0.3 still means r = 1 (never below one box pass of radius 1): same as sigma 1.
    expect(Array.from(inflateHeights(sq, 15, 15, 0, 0.3))).toEqual(Array.from(s));
    // sigma 2 -> r = round((sqrt 17 - 1) / 2) = 2: a different blur.
    expect(at(inflateHeights(sq, 15, 15, 0, 2), 3, 7)).not.toBeCloseTo(3.0551, 3);
  });
});

describe("inflateSilhouette", () => {
  // A 4x4 square at (2..5, 2..5) of an 8x8 image, 8 cells: 0.5 px per cell, an 8x8 grid with 2 cells of padding.
  const mask = rect(8, 8, 2, 2, 5, 5);
  const m = inflateSilhouette(mask, 8, 8, { cells: 8, maxTriangles: 1e9 });

  it("is a closed, outward pillow: 9x9 corners front and back sharing the 32 rim corners, 64 cells x 4 triangles", () => {
    expect(m.cells).toBe(8);
    expect(m.positions.length / 3).toBe(2 * 81 - 32);
    expect(m.indices.length / 3).toBe(256);
    expect(checkManifold(m.indices)).toMatchObject({ closed: true, oriented: true });
    expect(signedVolume(m.positions, m.indices)).toBeGreaterThan(0);
  });

  it("is 100 mm tall from Y = 0, centred in X, and mirror-symmetric front to back", () => {
    const b = meshBounds(m.positions);
    expect(b.min[1]).toBeCloseTo(0, 6);
    expect(b.max[1]).toBeCloseTo(100, 5);
    expect(b.min[0]).toBeCloseTo(-50, 5);
    expect(b.max[0]).toBeCloseTo(50, 5);
    expect(b.max[2]).toBeCloseTo(-b.min[2], 6);
    expect(b.max[2]).toBeCloseTo(50.0849, 3); // measured: the inflation of a square is a little over half its width
    const key = (x: number, y: number, z: number) => `${x.toFixed(3)},${y.toFixed(3)},${z.toFixed(3)}`;
    const p = m.positions,
      set = new Set<string>();
    for (let v = 0; v < p.length; v += 3) set.add(key(p[v]!, p[v + 1]!, p[v + 2]!));
    for (let v = 0; v < p.length; v += 3) expect(set.has(key(p[v]!, p[v + 1]!, -p[v + 2]! + 0))).toBe(true);
    // Top of the image is +Y: the vertex with the largest Y has the smallest v.
    let top = 0;
    for (let v = 0; v < p.length / 3; v++) if (p[v * 3 + 1]! > p[top * 3 + 1]!) top = v;
    expect(m.uvs[top * 2 + 1]).toBeCloseTo(0.25, 6);
  });

  it("uvs span the square's pixels [2, 6) / 8 exactly and follow X", () => {
    const u = m.uvs.filter((_, i) => i % 2 === 0),
      v = m.uvs.filter((_, i) => i % 2 === 1);
    expect(Math.min(...u)).toBeCloseTo(0.25, 6);
    expect(Math.max(...u)).toBeCloseTo(0.75, 6);
    expect(Math.min(...v)).toBeCloseTo(0.25, 6);
    expect(Math.max(...v)).toBeCloseTo(0.75, 6);
    for (let k = 0; k < u.length; k++) expect(u[k]).toBeCloseTo(0.5 + m.positions[k * 3]! / 200, 5);
    for (let k = 0; k < v.length; k++) expect(v[k]).toBeCloseTo(0.75 - m.positions[k * 3 + 1]! / 200, 5);
  });

  it("depthScale multiplies Z only; heightMm scales all axes", () => {
    const d = inflateSilhouette(mask, 8, 8, { cells: 8, maxTriangles: 1e9, depthScale: 2 });
    const h = inflateSilhouette(mask, 8, 8, { cells: 8, maxTriangles: 1e9, heightMm: 50 });
    for (let k = 0; k < m.positions.length; k++) {
      expect(d.positions[k]).toBeCloseTo(m.positions[k]! * (k % 3 === 2 ? 2 : 1), 4);
      expect(h.positions[k]).toBeCloseTo(m.positions[k]! / 2, 4);
    }
    expect(signedVolume(d.positions, d.indices)).toBeCloseTo(2 * signedVolume(m.positions, m.indices), 0);
  });

  it("creaseSmoothing 0 leaves the exact union: a different (lower-centred) surface than the default 0.02", () => {
    const raw = inflateSilhouette(mask, 8, 8, { cells: 8, maxTriangles: 1e9, creaseSmoothing: 0 });
    expect(meshBounds(raw.positions).max[2]).not.toBeCloseTo(50.0849, 3);
  });

  it("never goes below 8 cells and shrinks the grid to the triangle budget", () => {
    expect(inflateSilhouette(mask, 8, 8, { cells: 3, maxTriangles: 1e9 }).cells).toBe(8);
    // 64x32 rectangle at 64 cells: 2048 cells x 4 = 8192 triangles > 1000 -> floor(64 sqrt(1000 / 8192) 0.97) = 21.
    const r = inflateSilhouette(rect(64, 64, 0, 0, 63, 31), 64, 64, { cells: 64, maxTriangles: 1000 });
    expect(r.cells).toBe(21);
    expect(r.indices.length / 3).toBeLessThanOrEqual(1000);
    // An impossible budget stops at 8 cells.
    expect(inflateSilhouette(mask, 8, 8, { cells: 64, maxTriangles: 10 }).cells).toBe(8);
  });

  it("volume and the rim: 551437 mm^3 for the square (measured; rim smoothing 2 passes)", () => {
    expect(signedVolume(m.positions, m.indices)).toBeCloseTo(551437.25, 1);
  });

  it("keeps a 4-cell speck as its own closed part and drops a 1-cell one (minimum area 4 cells)", () => {
    // 16x16 image, an 8x8 square at the origin, cells 14 over the 14 px bounds: 1 px per cell, 64 cells -> 130 / 256.
    const main = () => rect(16, 16, 0, 0, 7, 7);
    const withSpeck = (x0: number, x1: number) => {
      const k = main();
      for (let y = x0; y <= x1; y++) for (let x = x0; x <= x1; x++) k[y * 16 + x] = 1;
      return k;
    };
    const two = inflateSilhouette(withSpeck(12, 13), 16, 16, { cells: 14, maxTriangles: 1e9 });
    expect(two.positions.length / 3).toBe(130 + (2 * 9 - 8)); // 2x2 cells: 3x3 corners twice, 8 rim corners shared
    expect(two.indices.length / 3).toBe(256 + 16);
    expect(checkManifold(two.indices)).toMatchObject({ closed: true, oriented: true });
    const one = inflateSilhouette(withSpeck(13, 13), 16, 16, { cells: 14, maxTriangles: 1e9 });
    expect(one.positions.length / 3).toBe(130);
    expect(one.indices.length / 3).toBe(256);
  });

  it("an L: only corners with all 4 cells set are raised; the 32 rim corners stay at Z = 0 (figures measured)", () => {
    // 2x4 upright plus 2x2 foot to the right (pixels), 8 cells: 0.5 px per cell.
    const ell = rect(8, 8, 2, 2, 3, 5);
    for (let y = 4; y <= 5; y++) for (let x = 4; x <= 5; x++) ell[y * 8 + x] = 1;
    const e = inflateSilhouette(ell, 8, 8, { cells: 8, maxTriangles: 1e9 });
    expect(e.positions.length / 3).toBe(98);
    expect(e.indices.length / 3).toBe(192);
    expect(e.positions.filter((v, i) => i % 3 === 2 && v === 0).length).toBe(32);
    expect(signedVolume(e.positions, e.indices)).toBeCloseTo(244119.48, 1);
    expect(meshBounds(e.positions).max[2]).toBeCloseTo(28.2739, 3);
  });

  it("crease sigma is 0.02 x cells by default: at 100 cells it is 2 (box radius 2), not 1 (measured volumes)", () => {
    const at = (creaseSmoothing?: number) => inflateSilhouette(mask, 8, 8, { cells: 100, maxTriangles: 1e9, creaseSmoothing });
    const d = at(undefined);
    expect(d.cells).toBe(100);
    expect(signedVolume(d.positions, d.indices)).toBeCloseTo(588559.44, 1);
    expect(Array.from(d.positions)).toEqual(Array.from(at(0.02).positions));
    expect(signedVolume(at(0.01).positions, at(0.01).indices)).toBeCloseTo(587074.04, 1);
  });

  it("uvs divide by the image's own width and height (8 x 12 image: v in [2, 6) / 12)", () => {
    const r = inflateSilhouette(rect(8, 12, 2, 2, 5, 5), 8, 12, { cells: 8, maxTriangles: 1e9 });
    const u = r.uvs.filter((_, i) => i % 2 === 0),
      v = r.uvs.filter((_, i) => i % 2 === 1);
    expect(Math.min(...u)).toBeCloseTo(2 / 8, 6);
    expect(Math.max(...u)).toBeCloseTo(6 / 8, 6);
    expect(Math.min(...v)).toBeCloseTo(2 / 12, 6);
    expect(Math.max(...v)).toBeCloseTo(6 / 12, 6);
  });

  it("a budget met exactly keeps the cells; 9 cells over budget still drop to 8", () => {
    // 4x4 px at 16 cells: 16 x 16 = 256 cells x 4 = 1024 triangles.
    expect(inflateSilhouette(mask, 8, 8, { cells: 16, maxTriangles: 1024 }).cells).toBe(16);
    expect(inflateSilhouette(mask, 8, 8, { cells: 16, maxTriangles: 1023 }).cells).toBeLessThan(16);
    expect(inflateSilhouette(mask, 8, 8, { cells: 9, maxTriangles: 10 }).cells).toBe(8);
  });

  it("rejects an empty mask", () => {
    expect(() => inflateSilhouette(new Uint8Array(64), 8, 8, { cells: 8, maxTriangles: 1e9 })).toThrow(InputContentError);
    expect(() => inflateSilhouette(new Uint8Array(64), 8, 8, { cells: 8, maxTriangles: 1e9 })).toThrow("the image has no foreground");
  });
});
