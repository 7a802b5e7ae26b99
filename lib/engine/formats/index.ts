/** Mesh format writers keyed by the API's numeric format code. */
import type { Scene } from "@/lib/engine/mesh/types";
import { writeFbx } from "./fbx";
import { writeGlb } from "./glb";
import { writeObj } from "./obj";
import { writeStl } from "./stl";
import { write3mf } from "./threemf";
import { writeUsdz } from "./usdz";

export type MeshFormat = 1 | 2 | 3 | 4 | 5 | 6;

export interface EncodedMesh {
  bytes: Uint8Array;
  ext: string;
}

/** 1 obj (or zip with textures), 2 glb, 3 stl, 4 fbx, 5 usdz, 6 3mf. */
export async function writeMesh(scene: Scene, format: MeshFormat): Promise<EncodedMesh> {
  switch (format) {
    case 1:
      return writeObj(scene);
    case 2:
      return { bytes: await writeGlb(scene), ext: "glb" };
    case 3:
      return { bytes: await writeStl(scene), ext: "stl" };
    case 4:
      return { bytes: await writeFbx(scene), ext: "fbx" };
    case 5:
      return { bytes: await writeUsdz(scene), ext: "usdz" };
    case 6:
      return { bytes: await write3mf(scene), ext: "3mf" };
    default:
      throw new Error(`unknown mesh format ${String(format)}`);
  }
}
