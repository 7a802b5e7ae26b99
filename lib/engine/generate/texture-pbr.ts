/**
 * PBR maps derived from an image for texture.ts: roughness / metallic (glTF packing) and
 * tangent-space normals, on typed arrays.
 */
import { boxBlur } from "./box-filter";
import { pushPullFill, smoothFields } from "./texture-image";

/** Tangent-space slope per unit of luminance change per texel (Sobel-normalised). */
export const NORMAL_STRENGTH = 3;
/** Roughness of plain (no highlight, no texture) surfaces. */
export const BASE_ROUGHNESS = 0.7;
/** Highlight density -> gloss (a few highlight texels per neighbourhood mean glossy). */
const GLOSS_GAIN = 12;

const smoothstep = (a: number, b: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

export interface PbrMaps {
  /** RGBA, glTF packing: R 255, G roughness, B metallic. */
  metallicRoughness: Uint8Array;
  /** RGBA tangent-space normals (+X right, +Y up in the image, +Z out). */
  normal: Uint8Array;
}

/**
 * PBR maps of a w x h tile from its (de-shaded) sRGB colours `rgba` and subject mask.
 *
 * Heuristics (single image, no multi-light capture, so estimates only):
 * - Highlight: a subject pixel brighter than its neighbourhood mean (radius ~1% of the
 *   tile) by more than 0.04 luma, bright (> 0.55) and unsaturated (saturation < 0.35)
 *   looks like a specular reflection of a white light.
 * - Gloss G: the highlight density averaged over ~2.5% of the tile (tent), x12, clamped to 1,
 *   so the area around a highlight counts as glossy too.
 * - Roughness = 0.7 - 0.6 * G, clamped to [0.08, 1]: matte by default, smoother where
 *   highlights are seen.
 * - Metallic is 0 except where a surface is strongly glossy (G > 0.5), grey on average
 *   (neighbourhood saturation < 0.1..0.3) and of high contrast (std / mean > 0.2..0.45):
 *   polished steel / chrome mirror their surroundings with bright highlights and dark
 *   reflections. Coloured metals (gold, copper) are not detected.
 * - Normals: the luma as a height map (0..1, smoothed by a radius-2 tent), Sobel
 *   gradients (normalised by 1/8),
 *   n = normalise(-k dH/dx, k dH/dy, 1) with k = NORMAL_STRENGTH and image y downwards,
 *   so a bright (raised) disc tilts its rim outwards. Flat (128,128,255) wherever the
 *   3x3 neighbourhood leaves the subject. Outside the subject roughness and metallic are
 *   bled from the subject (push-pull).
 */
export function pbrMaps(rgba: Uint8Array, mask: Uint8Array, w: number, h: number): PbrMaps {
  const n = w * h;
  const Y = new Float32Array(n),
    Y2 = new Float32Array(n),
    S = new Float32Array(n),
    wt = new Float32Array(n);
  for (let p = 0; p < n; p++) {
    const r = rgba[p * 4]!,
      g = rgba[p * 4 + 1]!,
      b = rgba[p * 4 + 2]!;
    const y = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    Y[p] = y;
    Y2[p] = y * y;
    const mx = Math.max(r, g, b),
      mn = Math.min(r, g, b);
    S[p] = mx > 0 ? (mx - mn) / mx : 0;
    wt[p] = mask[p] ? 1 : 0;
  }
  const side = Math.max(w, h);
  const r1 = Math.max(2, Math.round(0.01 * side)),
    r2 = Math.max(3, Math.round(0.025 * side));
  const [mean, mean2] = smoothFields([Y, Y2], mask, w, h, r1, 1) as [Float32Array, Float32Array];
  const hl = new Float32Array(n);
  for (let p = 0; p < n; p++) {
    if (!mask[p]) continue;
    const y = Y[p]!;
    hl[p] = smoothstep(0.04, 0.2, y - mean[p]!) * smoothstep(0.35, 0.15, S[p]!) * smoothstep(0.5, 0.6, y);
  }
  const [gloss, satMean] = smoothFields([hl, S], mask, w, h, r2, 2) as [Float32Array, Float32Array];
  const mr = new Float32Array(n * 2);
  for (let p = 0; p < n; p++) {
    if (!mask[p]) continue;
    const m = mean[p]!;
    const sd = Math.sqrt(Math.max(0, mean2[p]! - m * m));
    const contrast = sd / (m + 0.05);
    const G = Math.min(1, GLOSS_GAIN * gloss[p]!);
    mr[p * 2] = Math.min(1, Math.max(0.08, BASE_ROUGHNESS - 0.6 * G));
    mr[p * 2 + 1] = smoothstep(0.5, 0.9, G) * (1 - smoothstep(0.1, 0.3, satMean[p]!)) * smoothstep(0.2, 0.45, contrast);
  }
  let any = false;
  for (let p = 0; p < n; p++)
    if (mask[p]) {
      any = true;
      break;
    }
  if (any) pushPullFill(mr, wt, w, h, 2);
  else for (let p = 0; p < n; p++) mr[p * 2] = BASE_ROUGHNESS;
  const metallicRoughness = new Uint8Array(n * 4);
  const normal = new Uint8Array(n * 4);
  for (let p = 0; p < n; p++) {
    metallicRoughness[p * 4] = 255;
    metallicRoughness[p * 4 + 1] = Math.round(mr[p * 2]! * 255);
    metallicRoughness[p * 4 + 2] = Math.round(mr[p * 2 + 1]! * 255);
    metallicRoughness[p * 4 + 3] = 255;
    normal[p * 4] = 128;
    normal[p * 4 + 1] = 128;
    normal[p * 4 + 2] = 255;
    normal[p * 4 + 3] = 255;
  }
  // Height: the luma smoothed by a small tent (radius 2) so rims span a few texels. boxBlur
  // returns 3x3 sums, so two passes sum 81 texels.
  const H = Float32Array.from(Y),
    tmp = new Float32Array(n);
  boxBlur(H, w, h, 1, H, tmp);
  boxBlur(H, w, h, 1, H, tmp);
  for (let p = 0; p < n; p++) H[p] = H[p]! / 81;
  const k = NORMAL_STRENGTH / 8;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const p = y * w + x;
      if (!(
        mask[p - w - 1] &&
        mask[p - w] &&
        mask[p - w + 1] &&
        mask[p - 1] &&
        mask[p] &&
        mask[p + 1] &&
        mask[p + w - 1] &&
        mask[p + w] &&
        mask[p + w + 1]
      ))
        continue;
      const gx = H[p - w + 1]! + 2 * H[p + 1]! + H[p + w + 1]! - H[p - w - 1]! - 2 * H[p - 1]! - H[p + w - 1]!;
      const gy = H[p + w - 1]! + 2 * H[p + w]! + H[p + w + 1]! - H[p - w - 1]! - 2 * H[p - w]! - H[p - w + 1]!;
      const nx = -k * gx,
        ny = k * gy;
      const inv = 1 / Math.sqrt(nx * nx + ny * ny + 1);
      normal[p * 4] = Math.round((nx * inv * 0.5 + 0.5) * 255);
      normal[p * 4 + 1] = Math.round((ny * inv * 0.5 + 0.5) * 255);
      normal[p * 4 + 2] = Math.round((inv * 0.5 + 0.5) * 255);
    }
  }
  return { metallicRoughness, normal };
}
