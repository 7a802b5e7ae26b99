/**
 * The engine's in-memory 3D model: what generators produce, what mesh readers return
 * and what format writers consume. Units are millimetres, +Y up, right-handed, faces
 * counter-clockwise seen from outside (glTF conventions, scaled to mm).
 */

/** An RGBA8 image, row-major from the top-left pixel. */
export interface RasterImage {
  width: number;
  height: number;
  /** width * height * 4 bytes, RGBA. */
  data: Uint8Array;
}

export interface Material {
  name: string;
  /** Linear RGBA factor in 0..1; multiplies the texture when both are present. */
  baseColorFactor: [number, number, number, number];
  baseColorTexture?: RasterImage;
  /** glTF packing: G = roughness, B = metallic. */
  metallicRoughnessTexture?: RasterImage;
  normalTexture?: RasterImage;
  metallicFactor: number;
  roughnessFactor: number;
}

export interface MeshPart {
  name: string;
  /** xyz per vertex, millimetres. */
  positions: Float32Array;
  /** Three vertex indices per triangle, counter-clockwise from outside. */
  indices: Uint32Array;
  /** Unit normal per vertex; writers compute them when absent. */
  normals?: Float32Array;
  /** uv per vertex, glTF convention (v = 0 at the top of the image). */
  uvs?: Float32Array;
  /** Linear rgb per vertex in 0..1. */
  colors?: Float32Array;
  material?: Material;
}

export interface Scene {
  parts: MeshPart[];
}

export function triangleCount(scene: Scene): number {
  return scene.parts.reduce((n, p) => n + p.indices.length / 3, 0);
}
