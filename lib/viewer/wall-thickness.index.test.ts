import { describe, expect, it } from "vitest";
import { faceNormals } from "./face-normals";
import type { MeshInput } from "./mesh-analysis";
import { cubeSoup, soupMesh } from "./mesh-analysis.test-helpers";
import { buildMeshIndex, meshIndexData } from "./mesh-index";
import { bumpySphere } from "./mesh-index.test-helpers";
import { placeThickness } from "./wall-figures";
import { wallThickness, wallThicknessInOrder } from "./wall-thickness";

/** Every ray against every triangle, with the same rules: what the index's walk must agree with. */
function bruteForce({ positions: p, indices }: MeshInput, maxDistance: number): Float32Array {
  const n = indices.length / 3;
  const normals = faceNormals(p, indices);
  const corner = (t: number, k: number) => new Float64Array(p.subarray(indices[t * 3 + k]! * 3, indices[t * 3 + k]! * 3 + 3));
  let size = 0;
  for (let k = 0; k < 3; k++) {
    const axis = Array.from(indices, (i) => p[i * 3 + k]!);
    size = Math.max(size, Math.max(...axis) - Math.min(...axis));
  }
  const out = new Float32Array(n).fill(Infinity);
  for (let t = 0; t < n; t++) {
    const d = [-normals[t * 3]!, -normals[t * 3 + 1]!, -normals[t * 3 + 2]!];
    if (d.every((v) => v === 0)) {
      out[t] = NaN;
      continue;
    }
    const [a, b, c] = [corner(t, 0), corner(t, 1), corner(t, 2)];
    const o = [0, 1, 2].map((k) => (a[k]! + b[k]! + c[k]!) / 3);
    let best = maxDistance;
    for (let s = 0; s < n; s++) {
      if (s === t || normals[s * 3]! * d[0]! + normals[s * 3 + 1]! * d[1]! + normals[s * 3 + 2]! * d[2]! <= 0) continue;
      const [x, y, z] = [corner(s, 0), corner(s, 1), corner(s, 2)];
      const e1 = [0, 1, 2].map((k) => y[k]! - x[k]!),
        e2 = [0, 1, 2].map((k) => z[k]! - x[k]!);
      const h = [d[1]! * e2[2]! - d[2]! * e2[1]!, d[2]! * e2[0]! - d[0]! * e2[2]!, d[0]! * e2[1]! - d[1]! * e2[0]!];
      const det = e1[0]! * h[0]! + e1[1]! * h[1]! + e1[2]! * h[2]!;
      if (Math.abs(det) < 1e-20) continue;
      const sv = [0, 1, 2].map((k) => o[k]! - x[k]!);
      const u = (sv[0]! * h[0]! + sv[1]! * h[1]! + sv[2]! * h[2]!) / det;
      if (u < 0 || u > 1) continue;
      const q = [sv[1]! * e1[2]! - sv[2]! * e1[1]!, sv[2]! * e1[0]! - sv[0]! * e1[2]!, sv[0]! * e1[1]! - sv[1]! * e1[0]!];
      const v = (d[0]! * q[0]! + d[1]! * q[1]! + d[2]! * q[2]!) / det;
      if (v < 0 || u + v > 1) continue;
      const hit = (e2[0]! * q[0]! + e2[1]! * q[1]! + e2[2]! * q[2]!) / det;
      if (hit > 1e-6 * size && hit < best) best = hit;
    }
    if (best < maxDistance) out[t] = best;
  }
  return out;
}

/** A bumpy sphere with a smaller one inside turned inside out: a hollow ball with uneven walls. */
function hollowBall(): MeshInput {
  const outer = bumpySphere(18, 3),
    inner = bumpySphere(14, 7);
  const shrunk = inner.positions.map((v) => v * 0.7);
  const flipped = inner.indices.slice();
  for (let t = 0; t < flipped.length; t += 3) [flipped[t + 1], flipped[t + 2]] = [flipped[t + 2]!, flipped[t + 1]!];
  const positions = new Float32Array([...outer.positions, ...shrunk]);
  const indices = new Uint32Array([...outer.indices, ...Array.from(flipped, (i) => i + outer.positions.length / 3)]);
  return { positions, indices };
}

describe("wallThickness through the mesh index", () => {
  it("gives every triangle the thickness a search of every triangle gives", () => {
    const ball = hollowBall();
    for (const maxDistance of [0.3, 5]) {
      const expected = bruteForce(ball, maxDistance);
      const got = wallThickness(ball, maxDistance, buildMeshIndex(ball));
      expect(Array.from(got).filter((t) => t < maxDistance).length).toBeGreaterThan(got.length / 20);
      got.forEach((t, i) => (Number.isFinite(expected[i]) ? expect(t).toBeCloseTo(expected[i]!, 5) : expect(t).toBe(expected[i])));
    }
  });

  it("marks degenerate triangles NaN and walls beyond the search Infinity, with or without a given index", () => {
    const mesh = soupMesh([...cubeSoup(10), [0, 0, 0, 1, 0, 0, 2, 0, 0]]);
    for (const index of [undefined, buildMeshIndex(mesh)]) {
      const t = wallThickness(mesh, 5, index);
      expect(Number.isNaN(t[12])).toBe(true);
      expect(Array.from(t.subarray(0, 12))).toEqual(new Array(12).fill(Infinity));
    }
  });

  it("in the index's order, in two stretches put back by triangle, gives the same walls", () => {
    const ball = hollowBall();
    const index = buildMeshIndex(ball);
    const { order } = meshIndexData(index);
    const n = ball.indices.length / 3;
    const whole = new Float32Array(n);
    for (const [from, to] of [
      [0, 700],
      [700, n],
    ] as const) {
      const part = wallThicknessInOrder(ball, 0.3, index, from, to);
      expect(part).toHaveLength(to - from);
      placeThickness(whole, part, order, from);
    }
    expect(whole).toEqual(wallThickness(ball, 0.3, index));
  });
});
