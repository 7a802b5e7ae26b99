/** Small closed meshes shared by the format tests (not used at runtime). */
import type { Material, MeshPart, RasterImage, Scene } from "@/lib/engine/mesh/types";

/** A 4x4 RGBA texture whose pixel (x, y) is (x*64, y*64, 128, 255). */
export function texture4x4(): RasterImage {
  const data = new Uint8Array(4 * 4 * 4);
  for (let y = 0; y < 4; y++) {
    for (let x = 0; x < 4; x++) {
      const o = (y * 4 + x) * 4;
      data.set([x * 64, y * 64, 128, 255], o);
    }
  }
  return { width: 4, height: 4, data };
}

/** Axis-aligned cube of edge `size` mm centred at `center`: 24 vertices (4 per face), 12 triangles. */
export function cube(size = 20, center: [number, number, number] = [0, 0, 0], withTexture = true): MeshPart {
  const h = size / 2;
  // Each face: normal, and two tangent axes u, v such that u x v = normal (CCW from outside).
  const faces: Array<[number[], number[], number[]]> = [
    [
      [1, 0, 0],
      [0, 0, -1],
      [0, 1, 0],
    ],
    [
      [-1, 0, 0],
      [0, 0, 1],
      [0, 1, 0],
    ],
    [
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, -1],
    ],
    [
      [0, -1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ],
    [
      [0, 0, 1],
      [1, 0, 0],
      [0, 1, 0],
    ],
    [
      [0, 0, -1],
      [-1, 0, 0],
      [0, 1, 0],
    ],
  ];
  const positions: number[] = [];
  const normals: number[] = [];
  const uvs: number[] = [];
  const indices: number[] = [];
  faces.forEach(([n, u, v], f) => {
    const corners: Array<[number, number]> = [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ];
    for (const [a, b] of corners) {
      for (let k = 0; k < 3; k++) positions.push(center[k]! + h * (n[k]! + a * u[k]! + b * v[k]!));
      normals.push(n[0]!, n[1]!, n[2]!);
      uvs.push((a + 1) / 2, 1 - (b + 1) / 2);
    }
    const o = f * 4;
    indices.push(o, o + 1, o + 2, o, o + 2, o + 3);
  });
  const material: Material = {
    name: "cube material",
    baseColorFactor: [1, 1, 1, 1],
    metallicFactor: 0,
    roughnessFactor: 0.8,
    ...(withTexture ? { baseColorTexture: texture4x4() } : {}),
  };
  return {
    name: "cube",
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    uvs: new Float32Array(uvs),
    indices: new Uint32Array(indices),
    material,
  };
}

/** Icosphere (one subdivision: 42 vertices, 80 triangles) with per-vertex colours, no uvs. */
export function icosphere(radius = 10, center: [number, number, number] = [40, 0, 0]): MeshPart {
  const t = (1 + Math.sqrt(5)) / 2;
  const verts: number[][] = [
    [-1, t, 0],
    [1, t, 0],
    [-1, -t, 0],
    [1, -t, 0],
    [0, -1, t],
    [0, 1, t],
    [0, -1, -t],
    [0, 1, -t],
    [t, 0, -1],
    [t, 0, 1],
    [-t, 0, -1],
    [-t, 0, 1],
  ].map((v) => {
    const l = Math.hypot(v[0]!, v[1]!, v[2]!);
    return v.map((c) => c / l);
  });
  let tris: number[][] = [
    [0, 11, 5],
    [0, 5, 1],
    [0, 1, 7],
    [0, 7, 10],
    [0, 10, 11],
    [1, 5, 9],
    [5, 11, 4],
    [11, 10, 2],
    [10, 7, 6],
    [7, 1, 8],
    [3, 9, 4],
    [3, 4, 2],
    [3, 2, 6],
    [3, 6, 8],
    [3, 8, 9],
    [4, 9, 5],
    [2, 4, 11],
    [6, 2, 10],
    [8, 6, 7],
    [9, 8, 1],
  ];
  const mid = new Map<string, number>();
  const midpoint = (a: number, b: number): number => {
    const key = a < b ? `${a}_${b}` : `${b}_${a}`;
    const hit = mid.get(key);
    if (hit !== undefined) return hit;
    const va = verts[a]!,
      vb = verts[b]!;
    const m = [0, 1, 2].map((k) => (va[k]! + vb[k]!) / 2);
    const l = Math.hypot(m[0]!, m[1]!, m[2]!);
    verts.push(m.map((c) => c / l));
    mid.set(key, verts.length - 1);
    return verts.length - 1;
  };
  tris = tris.flatMap(([a, b, c]) => {
    const ab = midpoint(a!, b!),
      bc = midpoint(b!, c!),
      ca = midpoint(c!, a!);
    return [
      [a!, ab, ca],
      [b!, bc, ab],
      [c!, ca, bc],
      [ab, bc, ca],
    ];
  });
  const positions = new Float32Array(verts.length * 3);
  const normals = new Float32Array(verts.length * 3);
  const colors = new Float32Array(verts.length * 3);
  verts.forEach((v, i) => {
    for (let k = 0; k < 3; k++) {
      positions[i * 3 + k] = center[k]! + radius * v[k]!;
      normals[i * 3 + k] = v[k]!;
      colors[i * 3 + k] = (v[k]! + 1) / 2;
    }
  });
  return {
    name: "icosphere",
    positions,
    normals,
    colors,
    indices: new Uint32Array(tris.flat()),
    material: { name: "sphere", baseColorFactor: [0.8, 0.2, 0.1, 1], metallicFactor: 0.5, roughnessFactor: 0.3 },
  };
}

/** The cube (textured) plus the icosphere (vertex colours). */
export function testScene(): Scene {
  return { parts: [cube(), icosphere()] };
}

/** Signed volume of a closed mesh (positive when triangles are CCW seen from outside). */
export function signedVolume(part: Pick<MeshPart, "positions" | "indices">): number {
  const p = part.positions;
  let v = 0;
  for (let t = 0; t < part.indices.length; t += 3) {
    const a = part.indices[t]! * 3,
      b = part.indices[t + 1]! * 3,
      c = part.indices[t + 2]! * 3;
    v +=
      p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) -
      p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) +
      p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!);
  }
  return v / 6;
}

/** glTF JSON as the hand-made GLBs below write it: loose, so that a test can break any field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseGltf = Record<string, any>;

/** A GLB of the given JSON and BIN chunk, each padded to 4 bytes (JSON with spaces, BIN with zeros), nothing checked. */
export function rawGlb(json: LooseGltf, bin?: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = Math.ceil(text.length / 4) * 4;
  const binLength = bin ? Math.ceil(bin.length / 4) * 4 : 0;
  const out = new Uint8Array(12 + 8 + jsonLength + (bin ? 8 + binLength : 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); // "glTF"
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true); // "JSON"
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(text, 20);
  if (bin) {
    view.setUint32(20 + jsonLength, binLength, true);
    view.setUint32(24 + jsonLength, 0x004e4942, true); // "BIN\0"
    out.set(bin, 28 + jsonLength);
  }
  return out;
}

/**
 * A unit square (metres) as a hand-made glTF that passes the Khronos validator: POSITION (view 0,
 * bytes 0-47), NORMAL (view 1, bytes 48-95) and six u16 indices (view 2, bytes 96-107) in one
 * 108-byte buffer. Tests break one field of a fresh copy and write it with rawGlb.
 */
export function squareGltf(): { json: LooseGltf; bin: Uint8Array } {
  const bin = new Uint8Array(108);
  const f32 = new Float32Array(bin.buffer, 0, 24);
  f32.set([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
  f32.set([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1], 12);
  new Uint16Array(bin.buffer, 96, 6).set([0, 1, 2, 0, 2, 3]);
  const json: LooseGltf = {
    asset: { version: "2.0" },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: "square" }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, mode: 4 }] }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 4, type: "VEC3", min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5126, count: 4, type: "VEC3" },
      { bufferView: 2, componentType: 5123, count: 6, type: "SCALAR" },
    ],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 48, target: 34962 },
      { buffer: 0, byteOffset: 48, byteLength: 48, target: 34962 },
      { buffer: 0, byteOffset: 96, byteLength: 12, target: 34963 },
    ],
    buffers: [{ byteLength: 108 }],
  };
  return { json, bin };
}
