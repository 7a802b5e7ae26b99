/**
 * Binary STL writer: all parts merged, facet normals computed from the triangles.
 * STL is written Z-up (the 3D-printing convention: slicers treat +Z as up), i.e. the
 * scene's (x, y, z) becomes (x, -z, y); readMesh applies the inverse when reading STL.
 */
import type { Scene } from "@/lib/engine/mesh/types";
import { assertValidScene, faceNormal } from "./common";

const HEADER = "x3d binary STL, millimetres, Z up";

export async function writeStl(scene: Scene): Promise<Uint8Array> {
  assertValidScene(scene);
  const count = scene.parts.reduce((n, p) => n + p.indices.length / 3, 0);
  const out = new Uint8Array(84 + 50 * count);
  const view = new DataView(out.buffer);
  for (let i = 0; i < HEADER.length; i++) out[i] = HEADER.charCodeAt(i);
  view.setUint32(80, count, true);
  let o = 84;
  const put = (x: number, y: number, z: number): void => {
    // Y-up -> Z-up: rotate +90 degrees about X.
    view.setFloat32(o, x, true);
    view.setFloat32(o + 4, 0 - z, true); // 0 - z avoids writing -0
    view.setFloat32(o + 8, y, true);
    o += 12;
  };
  for (const part of scene.parts) {
    const p = part.positions;
    const idx = part.indices;
    for (let t = 0; t < idx.length; t += 3) {
      const a = idx[t]!,
        b = idx[t + 1]!,
        c = idx[t + 2]!;
      const [nx, ny, nz] = faceNormal(p, a, b, c);
      put(nx, ny, nz);
      for (const v of [a, b, c]) put(p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!);
      view.setUint16(o, 0, true);
      o += 2;
    }
  }
  return out;
}

/** Converts a Z-up STL coordinate back to the scene's Y-up frame. */
export function stlToSceneAxes(x: number, y: number, z: number): [number, number, number] {
  return [x, z, -y];
}
