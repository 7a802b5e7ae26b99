/**
 * Looking at a model's maps one at a time: its base colour, normal, metallic/roughness or
 * occlusion map drawn unlit on its own, or a UV checker texture lit over the model.
 */
import {
  Color,
  DataTexture,
  MeshBasicMaterial,
  MeshStandardMaterial,
  RepeatWrapping,
  SRGBColorSpace,
  type Material,
  type Texture,
} from "three";

export type MaterialView = "lit" | "base" | "normal" | "metalRough" | "occlusion" | "uv";

/** The choices, in the order the viewer offers them. */
export const MATERIAL_VIEWS: readonly { value: MaterialView; label: string }[] = [
  { value: "lit", label: "Lit" },
  { value: "base", label: "Base colour" },
  { value: "normal", label: "Normal map" },
  { value: "metalRough", label: "Metallic/roughness" },
  { value: "occlusion", label: "Occlusion" },
  { value: "uv", label: "UV checker" },
];

export const isMaterialView = (v: string): v is MaterialView => MATERIAL_VIEWS.some((m) => m.value === v);

/** A view's name as the viewer's Maps tool shows it ("Base colour"). */
export const mapLabel = (view: MaterialView): string => MATERIAL_VIEWS.find((v) => v.value === view)?.label ?? view;

/** An sRGB colour from 0–1 channels, shown as those very values. */
const shown = (r: number, g: number, b: number) => new Color().setRGB(r, g, b, SRGBColorSpace);

/**
 * The unlit material that shows one map of `original` (a MeshStandardMaterial after loading;
 * anything else shows its colour or white). Without the map, it shows what the factors mean:
 * the base colour, a flat normal (128, 128, 255), glTF's packing of metallic/roughness (blue
 * metallic, green roughness), no occlusion (white).
 */
export function mapMaterial(original: Material, view: "base" | "normal" | "metalRough" | "occlusion"): MeshBasicMaterial {
  const standard = original instanceof MeshStandardMaterial ? original : null;
  // Not tone mapped: a map's values reach the screen as they are (a flat normal is 128, 128, 255).
  const common = {
    name: `${view} of ${original.name}`,
    side: original.side,
    transparent: original.transparent,
    opacity: original.opacity,
    toneMapped: false,
  };
  const withMap = (map: Texture | null, fallback: Color) =>
    new MeshBasicMaterial({ ...common, map, color: map ? new Color(0xffffff) : fallback });
  switch (view) {
    case "base":
      return new MeshBasicMaterial({
        ...common,
        map: standard?.map ?? null,
        color: standard ? standard.color.clone() : new Color(0xffffff),
        vertexColors: original.vertexColors,
        alphaTest: original.alphaTest,
      });
    case "normal":
      return withMap(standard?.normalMap ?? null, shown(0.5, 0.5, 1));
    case "metalRough":
      return withMap(
        standard?.metalnessMap ?? standard?.roughnessMap ?? null,
        shown(0, standard?.roughness ?? 1, standard?.metalness ?? 0),
      );
    case "occlusion":
      return withMap(standard?.aoMap ?? null, new Color(0xffffff));
  }
}

/**
 * A UV checker: `cells` × `cells` squares alternating light and dark, their hue turning
 * along u and their brightness along v, so stretching, seams and flipped islands show.
 */
export function uvCheckerTexture(size = 512, cells = 16): DataTexture {
  const data = new Uint8Array(size * size * 4);
  const cell = size / cells;
  const colour = new Color();
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const cx = Math.floor(x / cell);
      const cy = Math.floor(y / cell);
      const light = (cx + cy) % 2 === 0;
      colour.setHSL(cx / cells, 0.7, light ? 0.75 - (0.3 * cy) / cells : 0.25);
      const i = (y * size + x) * 4;
      data[i] = Math.round(colour.r * 255);
      data[i + 1] = Math.round(colour.g * 255);
      data[i + 2] = Math.round(colour.b * 255);
      data[i + 3] = 255;
    }
  }
  const texture = new DataTexture(data, size, size);
  texture.name = "uv checker";
  texture.wrapS = texture.wrapT = RepeatWrapping;
  texture.needsUpdate = true;
  return texture;
}

/** The lit material that lays the checker over a model. */
export function checkerMaterial(checker: Texture): MeshStandardMaterial {
  return new MeshStandardMaterial({ name: "uv checker", map: checker, roughness: 0.8, metalness: 0 });
}
