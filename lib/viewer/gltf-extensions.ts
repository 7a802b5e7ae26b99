/**
 * What a glTF asks of its loader before it is parsed: the viewer fetches the Draco decoder's
 * code only for a file that declares Draco compression.
 */

/** The glTF extension of Draco-compressed geometry. */
export const DRACO_EXTENSION = "KHR_draco_mesh_compression";

const GLB_MAGIC = 0x46546c67; // "glTF"
const JSON_CHUNK = 0x4e4f534a; // "JSON"

/**
 * The extensions a GLB (or a glTF's JSON) lists in `extensionsUsed`; none when the bytes are not
 * a readable glTF (the loader then says what is wrong with them).
 */
export function gltfExtensionsUsed(bytes: ArrayBuffer): string[] {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(jsonBytes(bytes)));
  } catch {
    return [];
  }
  const used = typeof json === "object" && json !== null && "extensionsUsed" in json ? json.extensionsUsed : undefined;
  return Array.isArray(used) ? used.filter((e): e is string => typeof e === "string") : [];
}

/** A GLB's first chunk when it is its JSON, else the whole file (a .gltf is JSON itself). */
function jsonBytes(bytes: ArrayBuffer): Uint8Array {
  const view = new DataView(bytes);
  if (bytes.byteLength < 20 || view.getUint32(0, true) !== GLB_MAGIC) return new Uint8Array(bytes);
  const length = view.getUint32(12, true);
  if (view.getUint32(16, true) !== JSON_CHUNK || 20 + length > bytes.byteLength) return new Uint8Array(0);
  return new Uint8Array(bytes, 20, length);
}
