/**
 * Image decoding (sharp) to RGBA8 at a working size, and the foreground mask: the alpha
 * channel when it is meaningful, else (rmbg) a flood fill of the background colour from
 * the border, else the whole frame.
 */
import sharp from "sharp";
import { InputDecodeError } from "./errors";
import { cleanMask, countSet, labelComponents } from "./mask-ops";

export interface DecodedImage {
  width: number;
  height: number;
  /** width * height * 4 bytes, RGBA, row-major from the top-left pixel. */
  data: Uint8Array;
  /** True when the alpha channel carries a silhouette (not all opaque). */
  hasAlpha: boolean;
}

export interface DecodeOptions {
  /** Longest side of the working image, in pixels. */
  maxSide: number;
  /** Scale small images up to maxSide too (default: only scale down). */
  enlarge?: boolean;
}

/** Decodes png/jpeg/webp/... bytes or a file path. Throws InputDecodeError on failure. */
export async function decodeImage(input: string | Uint8Array, opts: DecodeOptions): Promise<DecodedImage> {
  try {
    const src = typeof input === "string" ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const meta = await sharp(src, { failOn: "error" }).metadata();
    if (!meta.width || !meta.height) throw new InputDecodeError("image has no size");
    // EXIF orientations 5..8 swap width and height.
    const swap = (meta.orientation ?? 1) >= 5;
    const w0 = swap ? meta.height : meta.width;
    const h0 = swap ? meta.width : meta.height;
    const scale = opts.maxSide / Math.max(w0, h0);
    let pipeline = sharp(src, { failOn: "error" }).rotate().toColourspace("srgb").ensureAlpha();
    if (scale < 1 || (opts.enlarge && scale > 1)) {
      pipeline = pipeline.resize({
        width: Math.max(1, Math.round(w0 * scale)),
        height: Math.max(1, Math.round(h0 * scale)),
        fit: "fill",
        kernel: scale < 1 ? "lanczos3" : "cubic",
      });
    }
    const { data, info } = await pipeline.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new InputDecodeError(`unexpected channel count ${info.channels}`);
    const rgba = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return { width: info.width, height: info.height, data: rgba, hasAlpha: meaningfulAlpha(rgba) };
  } catch (err) {
    if (err instanceof InputDecodeError) throw err;
    throw new InputDecodeError(`cannot decode image: ${(err as Error).message ?? String(err)}`, { cause: err });
  }
}

/** Alpha is meaningful when a visible share of pixels is transparent and another is opaque. */
function meaningfulAlpha(rgba: Uint8Array): boolean {
  const n = rgba.length / 4;
  let transparent = 0;
  let opaque = 0;
  for (let i = 3; i < rgba.length; i += 4) {
    const a = rgba[i]!;
    if (a < 128) transparent++;
    else opaque++;
  }
  return transparent > n * 0.005 && opaque > n * 0.005;
}

export interface MaskOptions {
  /** Remove a uniform background when there is no alpha. */
  rmbg: boolean;
  /** Colour tolerance 0..1 (normalised RGB distance) added to the measured border noise. */
  tolerance?: number;
}

/** Foreground mask, 1 = subject, width * height bytes. */
export function foregroundMask(img: DecodedImage, opts: MaskOptions): Uint8Array {
  const { width: w, height: h, data } = img;
  const n = w * h;
  const minArea = Math.max(4, Math.round(n * 0.002));
  let mask: Uint8Array;
  if (img.hasAlpha) {
    mask = new Uint8Array(n);
    for (let p = 0; p < n; p++) mask[p] = data[p * 4 + 3]! >= 128 ? 1 : 0;
    cleanMask(mask, w, h, minArea, Math.round(n * 0.0005));
  } else if (opts.rmbg) {
    mask = removeUniformBackground(img, opts.tolerance ?? 0.06);
    cleanMask(mask, w, h, minArea, Math.round(n * 0.0005));
  } else {
    return new Uint8Array(n).fill(1);
  }
  const fg = countSet(mask);
  // A failed segmentation (nothing left, or nothing removed) falls back to the frame.
  if (fg < n * 0.005) return new Uint8Array(n).fill(1);
  return mask;
}

/** Per-pixel normalised colour distance (0..1) to `bg`. */
function colourDistances(data: Uint8Array, n: number, bg: [number, number, number]): Float32Array {
  const out = new Float32Array(n);
  const norm = 1 / (255 * Math.sqrt(3));
  for (let p = 0; p < n; p++) {
    const dr = data[p * 4]! - bg[0];
    const dg = data[p * 4 + 1]! - bg[1];
    const db = data[p * 4 + 2]! - bg[2];
    out[p] = Math.sqrt(dr * dr + dg * dg + db * db) * norm;
  }
  return out;
}

/** Median of the values in a 256-bin histogram. */
function histMedian(hist: Uint32Array, total: number): number {
  let acc = 0;
  for (let i = 0; i < 256; i++) {
    acc += hist[i]!;
    if (acc * 2 >= total) return i;
  }
  return 255;
}

/** Background removal for a roughly uniform backdrop: border statistics + flood fill. */
export function removeUniformBackground(img: DecodedImage, tolerance: number): Uint8Array {
  const { width: w, height: h, data } = img;
  const n = w * h;
  const ring = Math.max(1, Math.round(Math.min(w, h) * 0.01));
  const hists: [Uint32Array, Uint32Array, Uint32Array] = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
  const border: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (x >= ring && y >= ring && x < w - ring && y < h - ring) continue;
      const p = y * w + x;
      border.push(p);
      for (let c = 0; c < 3; c++) hists[c]![data[p * 4 + c]!]!++;
    }
  }
  const bg: [number, number, number] = [
    histMedian(hists[0], border.length),
    histMedian(hists[1], border.length),
    histMedian(hists[2], border.length),
  ];
  const dist = colourDistances(data, n, bg);
  // Border noise: the 75th percentile of the border pixels' distances to the median colour.
  const bd = Float32Array.from(border, (p) => dist[p]!).sort();
  const noise = bd[Math.floor(bd.length * 0.75)] ?? 0;
  const tol = Math.max(0.01, tolerance) + Math.min(0.15, 2 * noise);
  const isBg = new Uint8Array(n);
  for (let p = 0; p < n; p++) isBg[p] = dist[p]! <= tol ? 1 : 0;
  // Background = bg-coloured regions reached from the border, plus large enclosed
  // bg-coloured pockets (e.g. the inside of a handle).
  const comps = labelComponents(isBg, w, h, 1);
  const pocket = n * 0.001;
  const mask = new Uint8Array(n);
  for (let p = 0; p < n; p++) {
    const id = comps.labels[p]!;
    const background = id >= 0 && (comps.touchesBorder[id] || comps.sizes[id]! >= pocket);
    mask[p] = background ? 0 : 1;
  }
  return mask;
}
