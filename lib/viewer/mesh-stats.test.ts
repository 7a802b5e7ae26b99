import {
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  Float32BufferAttribute,
  Group,
  InstancedMesh,
  InterleavedBuffer,
  InterleavedBufferAttribute,
  Line,
  Mesh,
  MeshBasicMaterial,
  Points,
} from "three";
import { describe, expect, it } from "vitest";
import { countMeshStats, distinctPositions, formatMeshStats } from "./mesh-stats";

describe("countMeshStats", () => {
  it("counts an indexed geometry by its index", () => {
    const box = new BoxGeometry(1, 1, 1); // 24 vertices, 36 indices
    expect(countMeshStats(new Mesh(box))).toEqual({ triangles: 12, vertices: 24 });
  });

  it("counts a non-indexed geometry by its distinct positions", () => {
    const g = new BoxGeometry(1, 1, 1).toNonIndexed(); // 36 corners, 8 distinct points
    expect(g.index).toBeNull();
    expect(g.getAttribute("position").count).toBe(36);
    expect(countMeshStats(new Mesh(g))).toEqual({ triangles: 12, vertices: 8 });
  });

  it("tells apart positions that differ in one bit, and merges -0 with 0", () => {
    const a = new Float32Array([0, 0, 0, -0, 0, 0, 1, 0, 0, Math.fround(1 + 2 ** -23), 0, 0]);
    expect(distinctPositions(new BufferAttribute(a, 3))).toBe(3);
    expect(distinctPositions(new BufferAttribute(new Float32Array(), 3))).toBe(0);
  });

  it("reads interleaved positions", () => {
    // xyz + one padding float per vertex; the two triangles share an edge (4 distinct points).
    const data = new Float32Array([0, 0, 0, 9, 1, 0, 0, 9, 0, 1, 0, 9, 1, 0, 0, 9, 1, 1, 0, 9, 0, 1, 0, 9]);
    const g = new BufferGeometry();
    g.setAttribute("position", new InterleavedBufferAttribute(new InterleavedBuffer(data, 4), 3, 0));
    expect(countMeshStats(new Mesh(g))).toEqual({ triangles: 2, vertices: 4 });
  });

  it("adds nested meshes, honours drawRange and instances, skips points and lines", () => {
    const root = new Group();
    const child = new Group();
    root.add(child);
    child.add(new Mesh(new BoxGeometry()));
    const tri = new BufferGeometry();
    tri.setAttribute("position", new Float32BufferAttribute([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 0, 0, 2, 1, 0], 3)); // 6 distinct
    tri.setDrawRange(0, 3);
    child.add(new Mesh(tri));
    root.add(new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 3));
    root.add(new Points(new BoxGeometry()));
    root.add(new Line(new BoxGeometry()));
    root.add(new Mesh(new BufferGeometry())); // no positions
    expect(countMeshStats(root)).toEqual({ triangles: 12 + 1 + 36, vertices: 24 + 6 + 72 });
  });

  it("is zero for an empty scene", () => {
    expect(countMeshStats(new Group())).toEqual({ triangles: 0, vertices: 0 });
  });
});

describe("formatMeshStats", () => {
  it("groups thousands and pluralises", () => {
    expect(formatMeshStats({ triangles: 12345, vertices: 6789 })).toBe("12,345 triangles · 6,789 vertices");
    expect(formatMeshStats({ triangles: 1, vertices: 1 })).toBe("1 triangle · 1 vertex");
    expect(formatMeshStats({ triangles: 0, vertices: 0 })).toBe("0 triangles · 0 vertices");
  });
});
