import { BufferAttribute, BufferGeometry, DoubleSide, Mesh, MeshBasicMaterial, Raycaster, Vector3 } from "three";
import { describe, expect, it } from "vitest";
import type { MeshInput } from "./mesh-analysis";
import { buildMeshIndex, meshIndexBuffers, meshIndexData, meshIndexFrom, pickFirst } from "./mesh-index";
import { bumpySphere } from "./mesh-index.test-helpers";

/** three.js's own raycaster against every triangle: what the measuring pick did before the index. */
function bruteForce(input: MeshInput, origin: Vector3, direction: Vector3) {
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new BufferAttribute(input.positions, 3));
  geometry.setIndex(new BufferAttribute(input.indices, 1));
  const hit = new Raycaster(origin, direction).intersectObject(new Mesh(geometry, new MeshBasicMaterial({ side: DoubleSide })))[0];
  return hit ? { point: hit.point.toArray(), triangle: hit.faceIndex, distance: hit.distance } : null;
}

describe("the mesh index", () => {
  const input = bumpySphere(40);
  const rays = Array.from({ length: 300 }, (_, k) => {
    const origin = new Vector3(Math.cos(k), Math.sin(k * 1.7), Math.sin(k * 0.3)).setLength(3);
    // Aimed near the centre, some past the sphere's edge (misses).
    const target = new Vector3(Math.sin(k * 2.1), Math.cos(k * 0.7), Math.sin(k * 1.3)).multiplyScalar(1.1);
    return { origin, direction: target.sub(origin).normalize() };
  });

  it("picks the same triangle and point as a ray cast against every triangle, hits and misses", () => {
    const index = buildMeshIndex(input);
    let hits = 0;
    for (const { origin, direction } of rays) {
      const expected = bruteForce(input, origin, direction);
      const got = pickFirst(index, origin.toArray(), direction.toArray());
      if (!expected) {
        expect(got).toBeNull();
        continue;
      }
      hits++;
      expect(got?.triangle).toBe(expected.triangle);
      got?.point.forEach((v, i) => expect(v).toBeCloseTo(expected.point[i]!, 5));
    }
    expect(hits).toBeGreaterThan(100);
    expect(hits).toBeLessThan(rays.length);
  });

  it("picks the nearest triangle for rays along the axis planes through the model's vertices (axis-aligned views)", () => {
    // Rays in the planes x = 0, y = 0 and z = 0, where rings of the sphere's vertices lie: boxes'
    // faces sit on the ray, and a first hit on a box's face must not hide a nearer triangle in
    // the next box (three-mesh-bvh's raycastFirst skips that box).
    const index = buildMeshIndex(input);
    let hits = 0;
    for (let axis = 0; axis < 3; axis++)
      for (let k = 0; k < 400; k++) {
        const a = (k / 400) * 2 * Math.PI;
        const origin = new Vector3(3 * Math.cos(a), 3 * Math.sin(a), 3 * Math.cos(a + 1));
        const direction = new Vector3(Math.sin(k * 1.9), Math.cos(k * 0.8), Math.sin(k * 0.37)).multiplyScalar(0.6).sub(origin);
        origin.setComponent(axis, 0);
        direction.setComponent(axis, 0).normalize();
        const expected = bruteForce(input, origin, direction);
        const got = pickFirst(index, origin.toArray(), direction.toArray());
        // The nearest distance (a ray along an edge meets two triangles there: either will do).
        expect(got === null).toBe(expected === null);
        if (!expected) continue;
        expect(got?.distance).toBeCloseTo(expected.distance, 6);
        hits++;
      }
    expect(hits).toBeGreaterThan(1000);
  });

  it("keeps the model's own index buffer in its order", () => {
    const before = input.indices.slice();
    buildMeshIndex(input);
    expect(input.indices).toEqual(before);
  });

  it("moves to another thread as buffers and picks there as it did here, without building again", () => {
    const index = buildMeshIndex(input);
    const sent = meshIndexData(index, true);
    const data = structuredClone(sent, { transfer: meshIndexBuffers(sent) });
    expect(sent.order.byteLength).toBe(0);
    const copy = meshIndexFrom({ positions: input.positions.slice(), indices: input.indices.slice() }, data);
    for (const { origin, direction } of rays.slice(0, 50))
      expect(pickFirst(copy, origin.toArray(), direction.toArray())).toEqual(pickFirst(index, origin.toArray(), direction.toArray()));
  });
});
