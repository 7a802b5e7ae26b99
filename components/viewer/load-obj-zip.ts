/**
 * Loads an OBJ result delivered as a ZIP (OBJ + MTL + textures) in the browser: unzips
 * with fflate, hands the loaders blob URLs for the files the OBJ and MTL name, and waits
 * for the textures. The blob URLs live as long as the model (revoke them on dispose).
 */
import { Group, LoadingManager } from "three";
import { MTLLoader } from "three/examples/jsm/loaders/MTLLoader.js";
import { OBJLoader } from "three/examples/jsm/loaders/OBJLoader.js";
import { normalizeAssetPath, openObjZip } from "@/lib/viewer/zip-assets";

const MIME: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp", bmp: "image/bmp" };

export async function loadObjZip(bytes: Uint8Array, blobUrls: string[]): Promise<Group> {
  const { files, text, obj, mtl, resolver } = openObjZip(bytes);
  const urlOf = new Map<string, string>();
  const manager = new LoadingManager();
  manager.setURLModifier((url) => {
    if (/^(blob|data):/i.test(url)) return url;
    const entry = resolver.resolve(url);
    const data = entry ? files[entry] : undefined;
    if (!entry || !data) return url; // fails to load, and the model shows without that texture
    let blobUrl = urlOf.get(entry);
    if (!blobUrl) {
      const ext = entry.split(".").pop()?.toLowerCase() ?? "";
      blobUrl = URL.createObjectURL(new Blob([data as Uint8Array<ArrayBuffer>], { type: MIME[ext] ?? "application/octet-stream" }));
      urlOf.set(entry, blobUrl);
      blobUrls.push(blobUrl);
    }
    return blobUrl;
  });

  // Textures start loading synchronously while the OBJ is parsed; wait for them so the
  // first frame (and its screenshot) is the finished model.
  let started = false;
  const texturesDone = new Promise<void>((resolve) => {
    manager.onStart = () => (started = true);
    manager.onLoad = () => resolve();
  });

  const objLoader = new OBJLoader(manager);
  if (mtl) {
    const dir = normalizeAssetPath(mtl).split("/").slice(0, -1).join("/");
    const materials = new MTLLoader(manager).parse(text(mtl), dir ? `${dir}/` : "");
    materials.preload();
    objLoader.setMaterials(materials);
  }
  const group = objLoader.parse(text(obj));
  if (started) await texturesDone;
  return group;
}
