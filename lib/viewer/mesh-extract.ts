/**
 * A loaded model's triangles as one flat mesh in the root's frame (the upright turn and every
 * node transform applied, quantised attributes decoded), with each three.js mesh kept as a
 * part: the measure panel analyses the whole, the 3MF export writes one object per part.
 */
import { Matrix4, Vector3, type Mesh, type Object3D } from "three";
import type { MeshInput } from "./mesh-analysis";
import type { PrintPart } from "./print-export";

interface ExtractedPart {
  name: string;
  /** First vertex and vertex count in `positions`. */
  vertexStart: number;
  vertexCount: number;
  /** First index and index count in `indices`. */
  indexStart: number;
  indexCount: number;
}

export interface ExtractedModel extends MeshInput {
  parts: ExtractedPart[];
  /** Bounds of the vertices that triangles use, in the root's frame. */
  min: [number, number, number];
  max: [number, number, number];
}

/** Every triangle mesh under `root`, flattened into the root's frame. */
export function extractTriangles(root: Object3D): ExtractedModel {
  root.updateMatrixWorld(true);
  const toRoot = new Matrix4().copy(root.matrixWorld).invert();
  const meshes: Mesh[] = [];
  root.traverse((node) => {
    const mesh = node as Mesh;
    if (mesh.isMesh && mesh.geometry.getAttribute("position")) meshes.push(mesh);
  });
  let vertices = 0,
    corners = 0;
  for (const { geometry } of meshes) {
    const count = geometry.getAttribute("position").count;
    vertices += count;
    corners += geometry.index ? geometry.index.count - (geometry.index.count % 3) : count - (count % 3);
  }
  const positions = new Float32Array(vertices * 3);
  const indices = new Uint32Array(corners);
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const parts: ExtractedPart[] = [];
  const m = new Matrix4();
  const v = new Vector3();
  let vo = 0,
    io = 0;
  for (const [n, mesh] of meshes.entries()) {
    m.multiplyMatrices(toRoot, mesh.matrixWorld);
    const attr = mesh.geometry.getAttribute("position");
    for (let i = 0; i < attr.count; i++) {
      v.fromBufferAttribute(attr, i).applyMatrix4(m);
      positions[(vo + i) * 3] = v.x;
      positions[(vo + i) * 3 + 1] = v.y;
      positions[(vo + i) * 3 + 2] = v.z;
    }
    const index = mesh.geometry.index;
    const count = index ? index.count - (index.count % 3) : attr.count - (attr.count % 3);
    for (let k = 0; k < count; k++) {
      const local = index ? index.getX(k) : k;
      indices[io + k] = vo + local;
      for (let c = 0; c < 3; c++) {
        const x = positions[(vo + local) * 3 + c] ?? 0;
        if (x < (min[c] ?? Infinity)) min[c] = x;
        if (x > (max[c] ?? -Infinity)) max[c] = x;
      }
    }
    parts.push({ name: mesh.name || `part ${n + 1}`, vertexStart: vo, vertexCount: attr.count, indexStart: io, indexCount: count });
    vo += attr.count;
    io += count;
  }
  if (!indices.length) {
    min.fill(0);
    max.fill(0);
  }
  return { positions, indices, parts, min, max };
}

/** The extracted model's parts as separate meshes (indices local to each part). */
export function printParts(model: ExtractedModel): PrintPart[] {
  return model.parts
    .filter((p) => p.indexCount > 0)
    .map((p) => {
      const indices = model.indices.slice(p.indexStart, p.indexStart + p.indexCount);
      for (let k = 0; k < indices.length; k++) indices[k] = (indices[k] ?? 0) - p.vertexStart;
      return { name: p.name, positions: model.positions.subarray(p.vertexStart * 3, (p.vertexStart + p.vertexCount) * 3), indices };
    });
}
