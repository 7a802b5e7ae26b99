/** The distinct texture sizes of a three.js scene graph ("2048×2048"), largest first. */
import type { Material, Mesh, Object3D, Texture } from "three";

const isTexture = (value: unknown): value is Texture =>
  typeof value === "object" && value !== null && (value as { isTexture?: unknown }).isTexture === true;

function imageSize(texture: Texture): [number, number] | null {
  const image: unknown = texture.image;
  if (typeof image !== "object" || image === null) return null;
  const { width, height } = image as { width?: unknown; height?: unknown };
  return typeof width === "number" && typeof height === "number" && width > 0 && height > 0 ? [width, height] : null;
}

export function textureSizes(root: Object3D): string[] {
  const seen = new Set<Texture>();
  root.traverse((object) => {
    const material = (object as Partial<Mesh>).material;
    if (!material) return;
    for (const m of Array.isArray(material) ? (material as Material[]) : [material]) {
      for (const value of Object.values(m)) if (isTexture(value)) seen.add(value);
    }
  });
  const sizes = [...seen].map(imageSize).filter((s) => s !== null);
  sizes.sort((a, b) => b[0] * b[1] - a[0] * a[1]);
  return [...new Set(sizes.map(([w, h]) => `${w}×${h}`))];
}
