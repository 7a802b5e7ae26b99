import { describe, expect, it } from "vitest";
import { CREASE_DEGREES, creaseWeld, type WeldInput } from "./crease-weld";
import { checkManifold, vertexNormals } from "./mesh-ops";
import { box, uvSphere } from "./generate.test-helpers";
import { mulberry32 } from "./random";

/** Every triangle with its own three vertices, as STL stores a mesh. */
function unweld({ positions, indices }: WeldInput): WeldInput {
  const out = new Float32Array(indices.length * 3);
  indices.forEach((v, i) => out.set(positions.subarray(v * 3, v * 3 + 3), i * 3));
  return { positions: out, indices: Uint32Array.from({ length: indices.length }, (_, i) => i) };
}

/** The corner positions of every triangle, in order: what "same geometry" means. */
const corners = (m: WeldInput): number[] =>
  Array.from(m.indices, (v) => [m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!]).flat();

describe("creaseWeld", () => {
  it("joins an unwelded smooth surface into one vertex per point, triangles unchanged", () => {
    const sphere = uvSphere(10, 24, 48);
    const flat = unweld(sphere);
    const out = creaseWeld([flat]);
    expect(out.positions.length / 3).toBe(sphere.positions.length / 3);
    expect(out.indices.length).toBe(flat.indices.length);
    expect(corners(out)).toEqual(corners(flat));
    expect(checkManifold(out.indices)).toMatchObject({ closed: true, oriented: true });
  });

  it("keeps a box's hard edges: three vertices per corner, each with its face's normal", () => {
    const flat = unweld(box([0, 0, 0], [1, 2, 3]));
    const out = creaseWeld([flat]);
    expect(out.positions.length / 3).toBe(24);
    expect(corners(out)).toEqual(corners(flat));
    // Smooth normals over these vertices are the faces' own normals (axis-aligned).
    const n = vertexNormals(out.positions, out.indices);
    for (let v = 0; v < 24; v++) {
      const axis = [Math.abs(n[v * 3]!), Math.abs(n[v * 3 + 1]!), Math.abs(n[v * 3 + 2]!)].sort((a, b) => b - a);
      expect(axis[0]).toBeCloseTo(1, 6);
    }
  });

  it("splits at the crease angle and not below it", () => {
    // A hinge of two triangles strips meeting along the X axis at a chosen angle.
    const hinge = (deg: number): WeldInput => {
      const a = (deg * Math.PI) / 180;
      const p = [
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        0,
        1,
        1,
        0,
        1,
        0,
        Math.sin(Math.PI - a),
        -Math.cos(Math.PI - a),
        1,
        Math.sin(Math.PI - a),
        -Math.cos(Math.PI - a),
      ];
      return unweld({ positions: new Float32Array(p), indices: new Uint32Array([0, 1, 3, 0, 3, 2, 0, 4, 5, 0, 5, 1]) });
    };
    // The faces' normals differ by 180 - the hinge's opening angle.
    expect(creaseWeld([hinge(180 - (CREASE_DEGREES - 5))]).positions.length / 3).toBe(6);
    expect(creaseWeld([hinge(180 - (CREASE_DEGREES + 5))]).positions.length / 3).toBe(8);
  });

  it("joins parts that share positions, and treats -0 as 0", () => {
    const a: WeldInput = { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) };
    const b: WeldInput = { positions: new Float32Array([-0, 0, 0, 0, 1, 0, 0, 0, -1]), indices: new Uint32Array([0, 1, 2]) };
    const out = creaseWeld([a, b], 180);
    expect(out.positions.length / 3).toBe(4);
    expect(Array.from(out.indices)).toEqual([0, 1, 2, 0, 2, 3]);
  });

  it("keeps degenerate triangles and their places", () => {
    const m: WeldInput = {
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]),
      indices: new Uint32Array([0, 1, 2, 3, 4, 5]),
    };
    const out = creaseWeld([m]);
    expect(out.indices.length).toBe(6);
    expect(corners(out)).toEqual(corners(m));
    expect(out.positions.length / 3).toBe(3);
  });
});

describe("creaseWeld on larger and harder inputs", () => {
  it("welds a 130 x 130 grid given twice over, and a -0 corner with its 0 twin, one vertex per point", () => {
    const n = 130;
    const positions = new Float32Array(n * n * 3);
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) positions.set([x, y, 0], (y * n + x) * 3);
    const idx: number[] = [];
    for (let y = 0; y < n - 1; y++)
      for (let x = 0; x < n - 1; x++) {
        const a = y * n + x;
        idx.push(a, a + 1, a + n + 1, a, a + n + 1, a + n);
      }
    const grid: WeldInput = { positions, indices: new Uint32Array(idx) };
    const signed: WeldInput = { positions: new Float32Array([-0, -0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) };
    const out = creaseWeld([grid, grid, signed]);
    expect(out.positions.length / 3).toBe(n * n);
    expect(out.indices.subarray(0, idx.length).every((v, i) => v === idx[i])).toBe(true);
    expect(out.indices.subarray(idx.length, 2 * idx.length).every((v, i) => v === idx[i])).toBe(true);
    expect(Array.from(out.indices.subarray(2 * idx.length))).toEqual([0, 1, n]);
  });

  it("keeps every vertex of a mesh that has no repeated positions, in order", () => {
    // 41 points on a bumpy fan: the output table must grow past a quarter of the input.
    const pos = [0, 0, 0];
    for (let i = 0; i < 40; i++) pos.push(Math.cos(i / 6.4), Math.sin(i / 6.4), 0.01 * (i % 3));
    const indices = Array.from({ length: 39 }, (_, i) => [0, i + 1, i + 2]).flat();
    const out = creaseWeld([{ positions: new Float32Array(pos), indices: new Uint32Array(indices) }]);
    expect(Array.from(out.positions)).toEqual(Array.from(new Float32Array(pos)));
    expect(Array.from(out.indices)).toEqual(indices);
  });

  it("splits at the crease angle whatever the hinge's orientation", () => {
    const next = mulberry32(4);
    for (let trial = 0; trial < 8; trial++) {
      // A random rotation (unit quaternion) of the hinge of the test above.
      const q = [next() - 0.5, next() - 0.5, next() - 0.5, next() - 0.5];
      const l = Math.hypot(...q);
      const [w, x, y, z] = q.map((c) => c / l) as [number, number, number, number];
      const rotate = (p: number[]) => {
        const [px, py, pz] = p as [number, number, number];
        return [
          (1 - 2 * (y * y + z * z)) * px + 2 * (x * y - w * z) * py + 2 * (x * z + w * y) * pz,
          2 * (x * y + w * z) * px + (1 - 2 * (x * x + z * z)) * py + 2 * (y * z - w * x) * pz,
          2 * (x * z - w * y) * px + 2 * (y * z + w * x) * py + (1 - 2 * (x * x + y * y)) * pz,
        ];
      };
      const hinge = (turnDeg: number): WeldInput => {
        const t = (turnDeg * Math.PI) / 180;
        const p = [
          [0, 0, 0],
          [1, 0, 0],
          [0.5, -1, 0],
          [0.5, Math.cos(t), Math.sin(t)],
        ].flatMap(rotate);
        return unweld({ positions: new Float32Array(p), indices: new Uint32Array([1, 0, 2, 0, 1, 3]) });
      };
      // The normals turn by turnDeg: 4 vertices below the crease angle, 6 above.
      expect(creaseWeld([hinge(CREASE_DEGREES - 3)]).positions.length / 3).toBe(4);
      expect(creaseWeld([hinge(CREASE_DEGREES + 3)]).positions.length / 3).toBe(6);
      expect(creaseWeld([hinge(-(CREASE_DEGREES + 3))]).positions.length / 3).toBe(6);
    }
  });

  it("does not split fans of more than 256 corners", () => {
    // Triangles around the origin alternately in the z = 0 and x = 0 planes: two smoothing groups.
    const fan = (count: number): WeldInput => {
      const p = [0, 0, 0];
      const idx: number[] = [];
      for (let i = 0; i < count; i++) {
        const v = p.length / 3;
        p.push(...(i % 2 ? [0, i + 1, 1, 0, i + 1, 2] : [1, i + 1, 0, 2, i + 1, 0]));
        idx.push(0, v, v + 1);
      }
      return { positions: new Float32Array(p), indices: new Uint32Array(idx) };
    };
    expect(creaseWeld([fan(256)]).positions.length / 3).toBe(1 + 2 * 256 + 1);
    expect(creaseWeld([fan(257)]).positions.length / 3).toBe(1 + 2 * 257);
  });

  it("joins faces whose normals are exactly the crease angle apart", () => {
    // Two triangles back to back: normals 180 degrees apart.
    const p = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const twoSided: WeldInput = { positions: p, indices: new Uint32Array([0, 1, 2, 0, 2, 1]) };
    expect(creaseWeld([twoSided], 180).positions.length / 3).toBe(3);
    expect(creaseWeld([twoSided], 179).positions.length / 3).toBe(6);
  });

  it("keeps a box's hard edges whatever the order of its triangles", () => {
    const b = box([0, 0, 0], [1, 2, 3]);
    const reversed = new Uint32Array(b.indices.length);
    for (let t = 0; t < 12; t++) reversed.set(b.indices.subarray((11 - t) * 3, (11 - t) * 3 + 3), t * 3);
    const out = creaseWeld([unweld({ positions: b.positions, indices: reversed })]);
    expect(out.positions.length / 3).toBe(24);
  });

  it("does not let a degenerate face bridge the smoothing groups at a corner", () => {
    // A box with a zero-area triangle at its corner (0, 0, 0), after the faces and before them.
    const flat = unweld(box([0, 0, 0], [1, 2, 3]));
    const sliver = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    for (const m of [
      { positions: new Float32Array([...flat.positions, ...sliver]), indices: Uint32Array.from({ length: 39 }, (_, i) => i) },
      { positions: new Float32Array([...sliver, ...flat.positions]), indices: Uint32Array.from({ length: 39 }, (_, i) => i) },
    ]) {
      const out = creaseWeld([m]);
      expect(out.positions.length / 3).toBe(24);
      expect(corners(out)).toEqual(corners(m));
    }
    // Nor at a crease angle of 90 degrees or more, where its zero normal's dot product passes.
    const p = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    const twoSided: WeldInput = {
      positions: new Float32Array([...p, ...p, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
      indices: Uint32Array.from([0, 1, 2, 3, 5, 4, 6, 7, 8]),
    };
    expect(creaseWeld([twoSided], 120).positions.length / 3).toBe(6);
  });

  it("gives all the degenerate faces of a fan one vertex, shared with a proper face", () => {
    // Two zero-area triangles, then a proper one, all at the origin.
    const m: WeldInput = {
      positions: new Float32Array([0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0]),
      indices: new Uint32Array([0, 1, 2, 3, 4, 5, 6, 7, 8]),
    };
    const out = creaseWeld([m]);
    expect(out.positions.length / 3).toBe(4);
    expect(corners(out)).toEqual(corners(m));
  });
});
