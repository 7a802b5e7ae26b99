/**
 * The spatial index of a model's triangles: a three-mesh-bvh MeshBVH, built once per model in
 * the analysis worker (indirect, so the model's own index buffer keeps its order; built by
 * morton-bvh.ts), handed to the
 * page as two transferable buffers and rebuilt there over the page's copy of the triangles
 * without a new build. The thin-wall search and the measuring pick both walk it.
 */
import { BufferAttribute, BufferGeometry, DoubleSide, Ray, type Intersection, type Vector3 } from "three";
import { MeshBVH } from "three-mesh-bvh";
import type { MeshInput } from "./mesh-analysis";
import { mortonIndex } from "./morton-bvh";

/** What crosses a worker boundary: the node buffers and the BVH order of the triangles. */
export interface MeshIndexData {
  roots: ArrayBuffer[];
  /** Triangle numbers in the order of the index's leaves. */
  order: Uint32Array | Uint16Array;
}

function geometryOf({ positions, indices }: MeshInput): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new BufferAttribute(positions, 3));
  geometry.setIndex(new BufferAttribute(indices, 1));
  return geometry;
}

/**
 * Builds the index of `input`'s triangles: morton-bvh.ts writes it in three-mesh-bvh's layout
 * (2.5× faster than MeshBVH's own build at 2M triangles), made a MeshBVH without a second build.
 */
export function buildMeshIndex(input: MeshInput): MeshBVH {
  const { roots, order } = mortonIndex(input.positions, input.indices);
  return meshIndexFrom(input, { roots, order });
}

/**
 * The index's buffers, to transfer (they are the index's own: transfer a copy to keep using it).
 * The copy is of the nodes and the order only: MeshBVH.serialize's would also copy the model's
 * index buffer, which the receiver has already (24 MB at 2M triangles).
 */
export function meshIndexData(index: MeshBVH, copy = false): MeshIndexData {
  const data = MeshBVH.serialize(index, { cloneBuffers: false });
  if (!data.indirectBuffer) throw new Error("the mesh index was not built indirect");
  if (!copy) return { roots: data.roots, order: data.indirectBuffer };
  return { roots: data.roots.map((root) => root.slice(0)), order: data.indirectBuffer.slice() };
}

/** The buffers to list as a message's transfer. */
export function meshIndexBuffers(data: MeshIndexData): ArrayBuffer[] {
  return [...data.roots, data.order.buffer as ArrayBuffer];
}

/** The index over `input` from its transferred buffers, without building it again. */
export function meshIndexFrom(input: MeshInput, data: MeshIndexData): MeshBVH {
  const serialized = { version: 1, roots: data.roots, index: input.indices, indirectBuffer: data.order };
  return MeshBVH.deserialize(serialized, geometryOf(input), { setIndex: false });
}

export interface MeshHit {
  /** The hit point, in the mesh's frame. */
  point: [number, number, number];
  distance: number;
  /** Index of the triangle hit. */
  triangle: number;
}

const ray = new Ray();

/** The first triangle (either side) a ray from `origin` along `direction` meets, in the mesh's frame. */
export function pickFirst(
  index: MeshBVH,
  origin: readonly [number, number, number],
  direction: readonly [number, number, number],
): MeshHit | null {
  ray.origin.set(...origin);
  ray.direction.set(...direction).normalize();
  // Every hit, then the nearest: raycastFirst skips a child box when the first hit lies on the
  // face of it, yet a ray running along that face (a direction component of exactly 0, as an
  // axis-aligned view casts) can meet a nearer triangle there.
  let hit: Intersection | null = null;
  for (const h of index.raycast(ray, DoubleSide)) if (!hit || h.distance < hit.distance) hit = h;
  if (!hit) return null;
  const p: Vector3 = hit.point;
  return { point: [p.x, p.y, p.z], distance: hit.distance, triangle: hit.faceIndex ?? -1 };
}
