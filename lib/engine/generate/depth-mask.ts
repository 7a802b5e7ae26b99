/**
 * The depth task's subject mask (rmbg = 1). With a meaningful alpha channel the alpha
 * silhouette is used. Otherwise the background is the colour measured on the image border
 * (per-channel median of a 1% ring; its spread sets a noise floor), and every pixel within
 * `tolerance` of it that is connected to the border, or lies in a large enclosed pocket,
 * is removed (see removeUniformBackground). degree_rmbg is that tolerance, a normalised
 * RGB distance 0..1: a higher degree removes more. When a tolerance would leave (almost)
 * nothing, the largest tolerance that still leaves a subject (bisected to 1/128 of the
 * degree) is used instead of falling back to the whole frame, so raising the degree never
 * brings the background back; with no subject at any tolerance the frame is kept.
 */
import { type DecodedImage, foregroundMask, removeUniformBackground } from "./image-input";
import { cleanMask, countSet } from "./mask-ops";

/** Smallest share of the frame that counts as a subject. */
const MIN_SUBJECT = 0.005;

function backgroundRemoved(img: DecodedImage, tolerance: number): Uint8Array {
  const { width: w, height: h } = img;
  const n = w * h;
  const mask = removeUniformBackground(img, tolerance);
  return cleanMask(mask, w, h, Math.max(4, Math.round(n * 0.002)), Math.round(n * 0.0005));
}

/** Subject mask (1 = subject), width * height bytes. */
export function subjectMask(img: DecodedImage, degree: number): Uint8Array {
  if (img.hasAlpha) return foregroundMask(img, { rmbg: true, tolerance: degree });
  const n = img.width * img.height;
  const enough = (m: Uint8Array) => countSet(m) >= n * MIN_SUBJECT;
  let mask = backgroundRemoved(img, degree);
  if (enough(mask)) return mask;
  // Bisect for the largest tolerance below `degree` that leaves a subject.
  let lo = 0,
    hi = degree;
  let best: Uint8Array | null = null;
  for (let i = 0; i < 7; i++) {
    const mid = (lo + hi) / 2;
    mask = backgroundRemoved(img, mid);
    if (enough(mask)) {
      best = mask;
      lo = mid;
    } else hi = mid;
  }
  if (best) return best;
  mask = backgroundRemoved(img, 0);
  return enough(mask) ? mask : new Uint8Array(n).fill(1);
}
