import { describe, expect, it } from "vitest";
import { CREASE_DEGREES, creaseWeld, type WeldInput } from "./crease-weld";
import { checkManifold, vertexNormals } from "./mesh-ops";
import { box, uvSphere } from "./generate.test-helpers";

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
