import { BufferAttribute, BufferGeometry, Group, InterleavedBuffer, InterleavedBufferAttribute, Mesh } from "three";
import { describe, expect, it } from "vitest";
import { extractTriangles } from "./mesh-extract";
import { packMeshes, unpackMeshes } from "./mesh-transfer";

function scene(): Group {
  const root = new Group();
  root.rotation.x = -Math.PI / 2;
  // A quantised, indexed mesh, moved and scaled.
  const a = new BufferGeometry();
  // Its data is a view into a larger buffer, as a GLB's accessors are.
  const file = new ArrayBuffer(1000);
  const quantised = new Int16Array(file, 100, 12);
  quantised.set([0, 0, 0, 32767, 0, 0, 0, 32767, 0, 0, 0, 32767]);
  a.setAttribute("position", new BufferAttribute(quantised, 3, true));
  a.setIndex(new BufferAttribute(new Uint16Array([0, 1, 2, 0, 2, 3]), 1));
  const meshA = new Mesh(a);
  meshA.name = "arm";
  meshA.position.set(1, 2, 3);
  meshA.scale.setScalar(2);
  // An interleaved float mesh without an index, inside a child group.
  const data = new InterleavedBuffer(new Float32Array([0, 0, 0, 9, 1, 0, 0, 9, 0, 1, 0, 9]), 4);
  const b = new BufferGeometry();
  b.setAttribute("position", new InterleavedBufferAttribute(data, 3, 0));
  const child = new Group();
  child.position.x = -5;
  const meshB = new Mesh(b);
  meshB.name = "leg";
  child.add(meshB);
  root.add(meshA, child);
  return root;
}

describe("meshes packed for a worker", () => {
  it("flatten to exactly what the page would flatten", () => {
    const root = scene();
    const direct = extractTriangles(root);
    const packed = packMeshes(root);
    // What crosses to the worker is a copy: none of it is a view into the page's buffers.
    expect(packed.map((m) => m.positions.array.buffer.byteLength)).toEqual([24, 48]);
    const viaWorker = extractTriangles(unpackMeshes(structuredClone(packed)));
    expect(Array.from(viaWorker.positions)).toEqual(Array.from(direct.positions));
    expect(Array.from(viaWorker.indices)).toEqual(Array.from(direct.indices));
    expect(viaWorker.parts).toEqual(direct.parts);
    expect([viaWorker.min, viaWorker.max]).toEqual([direct.min, direct.max]);
    expect(direct.parts.map((p) => p.name)).toEqual(["arm", "leg"]);
  });
});
