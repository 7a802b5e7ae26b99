/**
 * Frees the GPU resources of a loaded model (what three-gltf-viewer's clear() does):
 * every geometry, material and texture, each once, and the blob URLs some loaders leave
 * behind in texture images (FBX's embedded images, for one).
 */
import type { BufferGeometry, Material, Mesh, Object3D, Texture } from "three";

export interface Resources {
  geometries: Set<BufferGeometry>;
  materials: Set<Material>;
  textures: Set<Texture>;
}

/** The textures a material refers to, under any property name (map, normalMap, ...). */
export function materialTextures(material: Material): Texture[] {
  const out: Texture[] = [];
  for (const value of Object.values(material)) {
    if (value && typeof value === "object" && (value as Texture).isTexture) out.push(value as Texture);
  }
  return out;
}

/** The materials of every mesh-like node (meshes, points, lines) under `root`. */
export function collectMaterials(root: Object3D): Set<Material> {
  const materials = new Set<Material>();
  root.traverse((node) => {
    const material = (node as Mesh).material as Material | Material[] | undefined;
    if (!material) return;
    for (const m of Array.isArray(material) ? material : [material]) materials.add(m);
  });
  return materials;
}

/** Every geometry, material and texture under `root` now (and in `into`, when given). */
export function collectResources(root: Object3D, into?: Resources): Resources {
  const res: Resources = into ?? { geometries: new Set(), materials: new Set(), textures: new Set() };
  root.traverse((node) => {
    const geometry = (node as Mesh).geometry as BufferGeometry | undefined;
    if (geometry?.isBufferGeometry) res.geometries.add(geometry);
  });
  for (const m of collectMaterials(root)) res.materials.add(m);
  for (const m of res.materials) for (const t of materialTextures(m)) res.textures.add(t);
  return res;
}

/** Disposes the resources and revokes the blob URLs their images came from. */
export function disposeResources(res: Resources, revokeObjectURL = defaultRevoke()): void {
  for (const g of res.geometries) g.dispose();
  for (const m of res.materials) m.dispose();
  for (const t of res.textures) {
    const src = (t.image as { src?: unknown } | null | undefined)?.src;
    if (revokeObjectURL && typeof src === "string" && src.startsWith("blob:")) revokeObjectURL(src);
    t.dispose();
  }
}

/** Detaches `root` and disposes everything under it. */
export function disposeObject(root: Object3D, revokeObjectURL = defaultRevoke()): void {
  root.removeFromParent();
  disposeResources(collectResources(root), revokeObjectURL);
}

function defaultRevoke(): ((url: string) => void) | undefined {
  return globalThis.URL?.revokeObjectURL?.bind(globalThis.URL);
}
