/**
 * OBJ/MTL, FBX, STL and 3MF loaders make Phong or Lambert materials, which ignore the
 * scene's environment map; the viewer lights models only with that map, so it turns them
 * into MeshStandardMaterial, keeping colour, textures and transparency.
 */
import { MeshStandardMaterial } from "three";
import type { Material, Mesh, MeshLambertMaterial, MeshPhongMaterial, Object3D } from "three";

type Legacy = MeshPhongMaterial | MeshLambertMaterial;

const isLegacy = (m: Material): m is Legacy =>
  (m as MeshPhongMaterial).isMeshPhongMaterial === true || (m as MeshLambertMaterial).isMeshLambertMaterial === true;

/** Roughness for a Blinn-Phong shininess (the usual Beckmann match), kept off mirror-like. */
export function roughnessFromShininess(shininess: number): number {
  const r = Math.sqrt(2 / (Math.max(0, shininess) + 2));
  return Math.min(1, Math.max(0.4, r));
}

/** A standard material that looks like `m` under image-based light. */
export function toStandardMaterial(m: Legacy): MeshStandardMaterial {
  const s = new MeshStandardMaterial({
    name: m.name,
    color: m.color,
    map: m.map,
    vertexColors: m.vertexColors,
    transparent: m.transparent,
    opacity: m.opacity,
    alphaTest: m.alphaTest,
    alphaMap: m.alphaMap,
    side: m.side,
    emissive: m.emissive,
    emissiveMap: m.emissiveMap,
    emissiveIntensity: m.emissiveIntensity,
    normalMap: m.normalMap,
    normalScale: m.normalScale,
    bumpMap: m.bumpMap,
    bumpScale: m.bumpScale,
    aoMap: m.aoMap,
    aoMapIntensity: m.aoMapIntensity,
    flatShading: m.flatShading,
    wireframe: m.wireframe,
    metalness: 0,
    roughness: (m as MeshPhongMaterial).isMeshPhongMaterial ? roughnessFromShininess((m as MeshPhongMaterial).shininess) : 1,
  });
  s.userData = { ...m.userData };
  return s;
}

/** Replaces every Phong/Lambert material under `root` (shared ones once); returns how many. */
export function convertToStandardMaterials(root: Object3D): number {
  const converted = new Map<Material, MeshStandardMaterial>();
  const swap = (m: Material): Material => {
    if (!isLegacy(m)) return m;
    let s = converted.get(m);
    if (!s) {
      s = toStandardMaterial(m);
      converted.set(m, s);
    }
    return s;
  };
  root.traverse((node) => {
    const mesh = node as Mesh;
    if (!mesh.isMesh) return;
    mesh.material = Array.isArray(mesh.material) ? mesh.material.map(swap) : swap(mesh.material);
  });
  // The textures now belong to the new materials: dispose the old materials only.
  for (const old of converted.keys()) old.dispose();
  return converted.size;
}
