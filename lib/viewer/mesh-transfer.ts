/**
 * A model's triangle meshes packed for a worker: per mesh its position data (plain or
 * interleaved, quantised or not), its index and its transform into the model's root frame,
 * copied out of the GLB's buffers (a view would drag the whole file along), and rebuilt on the
 * other side as three.js meshes under one group, so `extractTriangles` runs there unchanged.
 */
import { BufferAttribute, BufferGeometry, Group, InterleavedBuffer, InterleavedBufferAttribute, Matrix4, Mesh, type Object3D } from "three";

type Numbers = Float32Array | Int16Array | Uint16Array | Int8Array | Uint8Array | Uint32Array | Int32Array;

export interface PackedMesh {
  name: string;
  /** Column-major matrix from the mesh into the root's frame. */
  matrix: number[];
  positions: { array: Numbers; itemSize: number; normalized: boolean; stride?: number; offset?: number };
  index: Uint16Array | Uint32Array | null;
}

function copyOf(array: ArrayLike<number> & { slice(): Numbers }): Numbers {
  return array.slice();
}

/** The meshes under `root` with what `extractTriangles` reads of them. */
export function packMeshes(root: Object3D): PackedMesh[] {
  root.updateMatrixWorld(true);
  const toRoot = new Matrix4().copy(root.matrixWorld).invert();
  const packed: PackedMesh[] = [];
  root.traverse((node) => {
    const mesh = node as Mesh;
    if (!mesh.isMesh) return;
    const attribute = mesh.geometry.getAttribute("position");
    if (!attribute) return;
    const matrix = new Matrix4().multiplyMatrices(toRoot, mesh.matrixWorld).toArray();
    const positions =
      attribute instanceof InterleavedBufferAttribute
        ? {
            array: copyOf(attribute.data.array as Numbers),
            itemSize: attribute.itemSize,
            normalized: attribute.normalized,
            stride: attribute.data.stride,
            offset: attribute.offset,
          }
        : { array: copyOf(attribute.array as Numbers), itemSize: attribute.itemSize, normalized: attribute.normalized };
    const index = mesh.geometry.index ? (copyOf(mesh.geometry.index.array as Numbers) as Uint16Array | Uint32Array) : null;
    packed.push({ name: mesh.name, matrix, positions, index });
  });
  return packed;
}

/** The buffers of packed meshes, to transfer rather than copy. */
export function packedBuffers(packed: readonly PackedMesh[]): ArrayBuffer[] {
  return packed.flatMap((m) => [m.positions.array.buffer as ArrayBuffer, ...(m.index ? [m.index.buffer as ArrayBuffer] : [])]);
}

/** Packed meshes as three.js meshes under one group, each placed by its matrix. */
export function unpackMeshes(packed: readonly PackedMesh[]): Group {
  const group = new Group();
  for (const m of packed) {
    const geometry = new BufferGeometry();
    const { array, itemSize, normalized, stride, offset } = m.positions;
    geometry.setAttribute(
      "position",
      stride === undefined
        ? new BufferAttribute(array, itemSize, normalized)
        : new InterleavedBufferAttribute(new InterleavedBuffer(array, stride), itemSize, offset ?? 0, normalized),
    );
    if (m.index) geometry.setIndex(new BufferAttribute(m.index, 1));
    const mesh = new Mesh(geometry);
    mesh.name = m.name;
    mesh.matrixAutoUpdate = false;
    mesh.matrix.fromArray(m.matrix);
    group.add(mesh);
  }
  return group;
}
