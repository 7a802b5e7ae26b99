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
