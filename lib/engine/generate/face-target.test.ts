import { describe, expect, it } from "vitest";
import { compactMesh, FACE_TOLERANCE, fitTriangleCount, loopSubdivide, meshForTarget, simplifyTo } from "./face-target";
import { checkManifold, signedVolume } from "./mesh-ops";
import { box, uvSphere } from "./generate.test-helpers";

const tris = (m: { indices: Uint32Array }) => m.indices.length / 3;

describe("Loop subdivision", () => {
  it("quadruples the triangles of a closed mesh and keeps it closed and oriented", () => {
    const s = uvSphere(10, 12, 24);
    const d = loopSubdivide(s);
    expect(tris(d)).toBe(4 * tris(s));
    expect(d.positions.length / 3).toBe(s.positions.length / 3 + (3 * tris(s)) / 2);
    expect(checkManifold(d.indices)).toMatchObject({ closed: true, oriented: true });
  });

  it("converges towards a smooth surface: a cube rounds off and shrinks inside its box", () => {
    let m = { positions: box([-1, -1, -1], [1, 1, 1]).positions, indices: box([-1, -1, -1], [1, 1, 1]).indices };
    for (let i = 0; i < 4; i++) m = loopSubdivide(m);
    const v = signedVolume(m.positions, m.indices);
    expect(v).toBeGreaterThan(0.5);
    expect(v).toBeLessThan(8 * 0.8);
    let maxR = 0;
    for (let i = 0; i < m.positions.length; i += 3)
      maxR = Math.max(maxR, Math.hypot(m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!));
    expect(maxR).toBeLessThan(Math.sqrt(3) * 0.8);
  });

  it("keeps boundary edges of an open mesh as boundaries", () => {
    // A single quad (two triangles): its 4 outline edges become 8 boundary edges.
    const quad = { positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2, 0, 2, 3]) };
    const d = loopSubdivide(quad);
    expect(tris(d)).toBe(8);
    expect(checkManifold(d.indices).boundaryEdges).toBe(8);
  });
});

describe("face targets", () => {
  it.each([100_000, 250_000])("reaches %i triangles (within a tenth) from a 4.6k-triangle sphere, closed", async (target) => {
    const s = uvSphere(50, 48, 96);
    const m = await fitTriangleCount(s, target);
    expect(Math.abs(tris(m) / target - 1)).toBeLessThanOrEqual(0.1);
    const rep = checkManifold(m.indices);
    expect(rep).toMatchObject({ closed: true, oriented: true });
    const v = signedVolume(m.positions, m.indices);
    expect(v / ((4 / 3) * Math.PI * 50 ** 3)).toBeGreaterThan(0.95);
  });

  it("simplifies an over-dense mesh down to the target, keeping it closed and its shape", async () => {
    let m = { positions: uvSphere(50, 64, 128).positions, indices: uvSphere(50, 64, 128).indices };
    m = loopSubdivide(loopSubdivide(m)); // ~260k
    const s = (await simplifyTo(m, 20_000))!;
    expect(tris(s)).toBeLessThanOrEqual(20_000);
    expect(tris(s)).toBeGreaterThan(18_000);
    expect(checkManifold(s.indices)).toMatchObject({ closed: true, oriented: true });
    expect(signedVolume(s.positions, s.indices) / signedVolume(m.positions, m.indices)).toBeCloseTo(1, 2);
  });

  it.each([100_000, 500_000, 2_000_000])("plans a grid and Loop steps for %i triangles without simplifying", async (target) => {
    const built: number[] = [];
    const sphere = (cells: number) => {
      built.push(cells);
      const s = uvSphere(50, Math.max(3, Math.round(cells / 2)), cells);
      return { positions: s.positions, indices: s.indices };
    };
    const m = await meshForTarget(sphere, { cells: 128, minCells: 32, maxCells: 256 }, target);
    expect(Math.abs(tris(m) / target - 1)).toBeLessThanOrEqual(0.1);
    expect(checkManifold(m.indices)).toMatchObject({ closed: true, oriented: true });
    expect(built.length).toBeLessThanOrEqual(6);
    // Loop steps (x4 each) from a sphere of (cells/2) x cells x 2 triangles: the count is 4^k times a grid count.
    const base = tris(m) / 4 ** Math.round(Math.log(tris(m) / built.at(-1)! ** 2) / Math.log(4));
    expect(Number.isInteger(base)).toBe(true);
  });

  // The band is FACE_TOLERANCE (a tenth) either side of the target: a mesh just inside is left as
  // it is, one just outside is brought in. A doubled or halved band fails one pair of these.
  describe("the tolerance band's edges", () => {
    const sphere = () => {
      const s = uvSphere(50, 24, 48);
      return { positions: s.positions, indices: s.indices };
    };
    const n = tris(sphere());

    // Targets are whole numbers, as the API's `face` is.
    const targetFor = (share: number) => Math.round(n / share);

    it.each([0.91, 1.09])("a mesh at %f of the target is left as it is", async (share) => {
      const mesh = sphere();
      expect(await fitTriangleCount(mesh, targetFor(share))).toBe(mesh);
    });

    it.each([0.89, 1.11])("a mesh at %f of the target is brought into the band", async (share) => {
      const mesh = sphere();
      const target = targetFor(share);
      const fitted = await fitTriangleCount(mesh, target);
      expect(fitted).not.toBe(mesh);
      expect(tris(fitted)).toBeGreaterThanOrEqual((1 - FACE_TOLERANCE) * target);
      expect(tris(fitted)).toBeLessThanOrEqual((1 + FACE_TOLERANCE) * target);
    });
  });

  it("compacts away unreferenced vertices", () => {
    const m = compactMesh({ positions: new Float32Array([9, 9, 9, 0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([1, 2, 3]) });
    expect(Array.from(m.positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(Array.from(m.indices)).toEqual([0, 1, 2]);
  });
});
