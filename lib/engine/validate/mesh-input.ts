import { formatBytes } from "@/lib/files/format-bytes";
import { LIMITS, MESH_TYPES } from "@/lib/x3d/options";
import { sniffMesh } from "@/lib/files/sniff";
import { EngineError } from "../engine-error";
import { files, isHttpUrl, text, urlExtension, type FormInput, type UploadedFile } from "./form";

export type MeshInput = { file: UploadedFile } | { url: string };

/** `mesh` or `mesh_url` of split and segmentation: one GLB, STL or OBJ of at most 200 MB. */
export function validateMeshInput(form: FormInput): MeshInput {
  const meshFiles = files(form, "mesh");
  const url = text(form, "mesh_url");
  if (meshFiles.length > 0 && url !== undefined) throw new EngineError(10030004);
  if (meshFiles.length > 1) throw new EngineError(10030012, `mesh takes one file, got ${meshFiles.length}`);
  const file = meshFiles[0];
  if (file) {
    if (file.size === 0) throw new EngineError(10030008, `mesh "${file.filename}" is empty`);
    if (file.size > LIMITS.meshBytes)
      throw new EngineError(10030006, `mesh is ${formatBytes(file.size)}, at most ${formatBytes(LIMITS.meshBytes)}`);
    if (!sniffMesh(file.head, file.size)) throw new EngineError(10030005, `mesh "${file.filename}" is not a GLB, STL or OBJ file`);
    return { file };
  }
  if (url === undefined) throw new EngineError(10030003);
  if (!isHttpUrl(url)) throw new EngineError(10030007, `mesh_url must be an http or https URL, got "${url}"`);
  const ext = urlExtension(url);
  if (ext && !(MESH_TYPES as readonly string[]).includes(ext)) {
    throw new EngineError(10030005, `mesh_url must point to a .glb, .stl or .obj file, got .${ext}`);
  }
  return { url };
}
