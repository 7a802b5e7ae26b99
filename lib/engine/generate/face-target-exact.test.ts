// compactMesh, loopSubdivide and fitTriangleCount pinned on a triangle, a tetrahedron, an
// octahedron and an open pyramid: Loop's weights worked out by hand for valence 3, 4 and the boundary.
import { describe, expect, it } from "vitest";
import { compactMesh, fitTriangleCount, type IndexedMesh, loopSubdivide } from "./face-target";

const mesh = (p: number[][], i: number[]): IndexedMesh => ({ positions: new Float32Array(p.flat()), indices: Uint32Array.from(i) });
const vert = (m: IndexedMesh, v: number) => Array.from(m.positions.subarray(v * 3, v * 3 + 3));

describe("compactMesh", () => {
  it("drops unreferenced vertices and renumbers in first-use order", () => {
    const m = compactMesh(
      mesh(
        [
          [0, 0, 0],
          [1, 1, 1],
          [2, 2, 2],
          [3, 3, 3],
          [4, 4, 4],
        ],
        [3, 1, 2, 2, 1, 3],
      ),
    );
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 2, 1, 0]);
    expect(Array.from(m.positions)).toEqual([3, 3, 3, 1, 1, 1, 2, 2, 2]);
  });
});

describe("loopSubdivide", () => {
  it("one open triangle: corners stay, edge midpoints added, four triangles in a fixed order", () => {
    // Edge ids by (lower vertex, higher neighbour): (0,1) = 0, (0,2) = 1, (1,2) = 2 -> vertices 3, 4, 5.
    const m = loopSubdivide(
      mesh(
        [
          [0, 0, 0],
          [4, 0, 0],
          [0, 8, 0],
        ],
        [0, 1, 2],
      ),
    );
    expect(Array.from(m.positions)).toEqual([0, 0, 0, 4, 0, 0, 0, 8, 0, 2, 0, 0, 0, 4, 0, 2, 4, 0]);
    // a, ab, ca / ab, b, bc / ca, bc, c / ab, bc, ca with ab = 3, bc = 5, ca = 4.
    expect(Array.from(m.indices)).toEqual([0, 3, 4, 3, 1, 5, 4, 5, 2, 3, 5, 4]);
  });

  it("tetrahedron (valence 3): beta 3/16, old points 7/16 v + 3/16 sum; edge points 3/8 (a + b) + 1/8 (c + d)", () => {
    const m = loopSubdivide(
      mesh(
        [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
      ),
    );
    expect(m.indices.length).toBe(48);
    expect(vert(m, 0)).toEqual([3 / 16, 3 / 16, 3 / 16]);
    expect(vert(m, 1)).toEqual([7 / 16, 3 / 16, 3 / 16]);
    expect(vert(m, 3)).toEqual([3 / 16, 3 / 16, 7 / 16]);
    // Edges: (0,1) 0, (0,2) 1, (0,3) 2, (1,2) 3, (1,3) 4, (2,3) 5 -> vertices 4..9.
    expect(vert(m, 4)).toEqual([3 / 8, 1 / 8, 1 / 8]); // 3/8 (1,0,0) + 1/8 (0,1,1)
    expect(vert(m, 7)).toEqual([3 / 8, 3 / 8, 1 / 8]); // (1,2): 3/8 (1,1,0) + 1/8 (0,0,1)
    expect(vert(m, 9)).toEqual([1 / 8, 3 / 8, 3 / 8]); // (2,3): 3/8 (0,1,1) + 1/8 (1,0,0)
  });

  it("octahedron (valence 4): beta 3/32, old points 5/8 v + 3/32 sum", () => {
    const P = [
      [2, 0, 0],
      [-2, 0, 0],
      [0, 2, 0],
      [0, -2, 0],
      [0, 0, 2],
      [0, 0, -2],
    ];
    const I = [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5];
    // Shift vertex 0 outwards to 4: its neighbours still sum to 0 -> 5/8 * 4 = 2.5.
    P[0] = [4, 0, 0];
    const m = loopSubdivide(mesh(P, I));
    expect(m.indices.length).toBe(96);
    expect(vert(m, 0)).toEqual([2.5, 0, 0]);
    // Vertex 2's neighbours 0, 1, 4, 5 sum to (2, 0, 0): 5/8 (0,2,0) + 3/32 (2,0,0).
    expect(vert(m, 2)).toEqual([3 / 16, 1.25, 0]);
    // Edge (0,2) is id 0: 3/8 ((4,0,0) + (0,2,0)) + 1/8 ((0,0,2) + (0,0,-2)).
    expect(vert(m, 6)).toEqual([1.5, 0.75, 0]);
  });

  it("open pyramid: the apex (valence 4, all edges shared) moves, the rim stays and rim edges get midpoints", () => {
    const m = loopSubdivide(
      mesh(
        [
          [0, 0, 8],
          [8, 0, 0],
          [0, 8, 0],
          [-8, 0, 0],
          [0, -8, 0],
        ],
        [0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 1],
      ),
    );
    expect(vert(m, 0)).toEqual([0, 0, 5]); // 5/8 * 8 + 3/32 * 0
    expect(vert(m, 1)).toEqual([8, 0, 0]);
    // Vertex 4 (neighbours 0, 1, 3: valence 3) is the higher end of both its rim edges: it stays too.
    expect(vert(m, 4)).toEqual([0, -8, 0]);
    // Edges: (0,1) 0, (0,2) 1, (0,3) 2, (0,4) 3, (1,2) 4, (1,4) 5, (2,3) 6, (3,4) 7.
    expect(vert(m, 5)).toEqual([3, 0, 3]); // 3/8 ((0,0,8) + (8,0,0)) + 1/8 ((0,8,0) + (0,-8,0))
    expect(vert(m, 9)).toEqual([4, 4, 0]); // rim midpoint
    expect(vert(m, 10)).toEqual([4, -4, 0]);
  });
});

describe("fitTriangleCount", () => {
  const tetra = mesh(
    [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
  );

  it("keeps a mesh within 10% of the target as it is", async () => {
    await expect(fitTriangleCount(tetra, 4)).resolves.toBe(tetra);
  });

  it("subdivides while under 90% of the target: 16 triangles stay at target 17 (16 >= 15.3), not at 18 (16 < 16.2)", async () => {
    const m17 = await fitTriangleCount(tetra, 17);
    expect(m17.indices.length / 3).toBe(16);
    expect(Array.from(m17.positions)).toEqual(Array.from(loopSubdivide(tetra).positions));
    const m18 = await fitTriangleCount(tetra, 18); // 64 after a second step, then simplified to at most 18
    expect(m18.indices.length / 3).toBeLessThanOrEqual(18);
    expect(m18.indices.length / 3).not.toBe(16);
  });

  it("exactly at the bounds nothing happens: 4 at (1 - 0.75) * 16, 64 at (1 + 1) * 32", async () => {
    await expect(fitTriangleCount(tetra, 16, 0.75)).resolves.toBe(tetra);
    const m64 = loopSubdivide(loopSubdivide(tetra));
    await expect(fitTriangleCount(m64, 32, 1)).resolves.toBe(m64);
  });

  it("simplifies when over 110%: 64 stays at target 59 (64 <= 64.9), is cut at 58", async () => {
    const m64 = loopSubdivide(loopSubdivide(tetra));
    expect(await fitTriangleCount(m64, 59)).toBe(m64);
    const cut = await fitTriangleCount(m64, 58);
    expect(cut.indices.length / 3).toBeLessThanOrEqual(58);
    await expect(fitTriangleCount(m64, 59, 0)).resolves.not.toBe(m64); // no tolerance: 64 > 59
  });
});
