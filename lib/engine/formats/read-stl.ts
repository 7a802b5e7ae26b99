/** STL reader (binary and ASCII). Identical vertices are merged; Z-up files become Y-up. */
import type { MeshPart } from "@/lib/engine/mesh/types";
import { MeshDecodeError } from "./mesh-decode-error";
import { stlToSceneAxes } from "./stl";

export function isBinaryStl(bytes: Uint8Array): boolean {
  if (bytes.length < 84) return false;
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
  return bytes.length === 84 + 50 * n;
}

/** Builds an indexed part from a flat list of triangle corner coordinates (Z-up STL frame). */
function mergeCorners(corners: Float32Array, name: string): MeshPart {
  const count = corners.length / 3;
  for (let i = 0; i < corners.length; i++) corners[i] = corners[i]! + 0; // -0 -> 0 so they merge
  const keys = new Uint32Array(corners.buffer, corners.byteOffset, corners.length);
  const map = new Map<string, number>();
  const positions: number[] = [];
  const corner = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const key = `${keys[i * 3]! | 0}_${keys[i * 3 + 1]! | 0}_${keys[i * 3 + 2]! | 0}`;
    let v = map.get(key);
    if (v === undefined) {
      v = positions.length / 3;
      map.set(key, v);
      const x = corners[i * 3]!,
        y = corners[i * 3 + 1]!,
        z = corners[i * 3 + 2]!;
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
        throw new MeshDecodeError("STL contains a non-finite coordinate");
      }
      positions.push(...stlToSceneAxes(x, y, z));
    }
    corner[i] = v;
  }
  const indices: number[] = [];
  for (let t = 0; t < count; t += 3) {
    const a = corner[t]!,
      b = corner[t + 1]!,
      c = corner[t + 2]!;
    if (a !== b && b !== c && a !== c) indices.push(a, b, c); // drop degenerate triangles
  }
  return { name, positions: new Float32Array(positions), indices: new Uint32Array(indices) };
}

export function readBinaryStl(bytes: Uint8Array): MeshPart {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(80, true);
  const corners = new Float32Array(n * 9);
  for (let t = 0; t < n; t++) {
    const o = 84 + t * 50 + 12; // skip the facet normal
    for (let k = 0; k < 9; k++) corners[t * 9 + k] = view.getFloat32(o + k * 4, true);
  }
  return mergeCorners(corners, "stl");
}

export function readAsciiStl(text: string): MeshPart {
  const values: number[] = [];
  const re = /vertex\s+(\S+)\s+(\S+)\s+(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const x = Number(m[1]),
      y = Number(m[2]),
      z = Number(m[3]);
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
      throw new MeshDecodeError(`ASCII STL has an invalid vertex: "${m[0]}"`);
    }
    values.push(x, y, z);
  }
  if (values.length % 9 !== 0) throw new MeshDecodeError("ASCII STL has a facet without exactly 3 vertices");
  const name = /^\s*solid[ \t]+([^\r\n]*)/.exec(text)?.[1]?.trim();
  return mergeCorners(new Float32Array(values), name || "stl");
}
