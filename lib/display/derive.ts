/**
 * The viewer's light copies of a stored result: display.glb keeps every triangle, name,
 * material and texture, only smaller (WebP textures, quantised + meshopt-compressed
 * geometry); preview.glb, for models too heavy to show at once, is simplified to at most
 * PREVIEW_TRIANGLES with 512-pixel textures. The steps follow glTF-Transform's `optimize`
 * order: dedup, weld, (simplify), textures, then quantise + meshopt.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Document, Logger, type NodeIO } from "@gltf-transform/core";
import { dedup, dequantize, meshopt, textureCompress, weld } from "@gltf-transform/functions";
import { MeshoptEncoder } from "meshoptimizer";
import sharp from "sharp";
import { countTriangles, simplifyTo } from "./simplify-preview";
import { createIO, readGlbFile, readSource, type SourceFormat } from "./read-source";

export type { SourceFormat } from "./read-source";

export interface DisplayCopy {
  /** The file's name in the output folder: "display.glb" or "preview.glb". */
  file: string;
  bytes: number;
  triangles: number;
}

export interface DisplayCopies {
  display: DisplayCopy;
  preview: DisplayCopy | null;
}

/** Models with more triangles than this also get a simplified preview.glb, of at most this many. */
export const PREVIEW_TRIANGLES = 200_000;

// The preview aims at half the limit: at about 5 compressed bytes a triangle, 100k keep
// it near 0.5 MB (200k would be 1 MB), and a 2M-triangle model still reads as itself.
const PREVIEW_TARGET = PREVIEW_TRIANGLES / 2;

// Bits per attribute, chosen to be invisible at any zoom the viewer allows: positions step
// by 1/16383 of the mesh's extent, uvs by a quarter texel of a 4096 texture, normals about
// 0.1 degree. Level "medium" quantises every attribute (KHR_mesh_quantization) with these
// bits. The preview takes level "high": normals through meshopt's 8-bit octahedral filter
// (under a degree off), a quarter smaller.
const DISPLAY = {
  level: "medium",
  quantizePosition: 14,
  quantizeNormal: 10,
  quantizeTexcoord: 14,
  quantizeColor: 8,
  textureSize: 2048,
} as const;
const PREVIEW = {
  level: "high",
  quantizePosition: 14,
  quantizeNormal: 8,
  quantizeTexcoord: 12,
  quantizeColor: 8,
  textureSize: 512,
} as const;

/** Textures to WebP (at most `textureSize` pixels a side), then quantisation and meshopt compression. */
async function compress(doc: Document, { textureSize, ...quantize }: typeof DISPLAY | typeof PREVIEW): Promise<void> {
  await doc.transform(textureCompress({ encoder: sharp, targetFormat: "webp", resize: [textureSize, textureSize] }));
  trace("textures");
  await doc.transform(meshopt({ encoder: MeshoptEncoder, ...quantize }));
}

/** Writes `doc` to `<outDir>/<name>` through a temporary name, so readers never see half a file. */
async function writeCopy(io: NodeIO, doc: Document, outDir: string, name: string): Promise<DisplayCopy> {
  const file = path.join(outDir, name);
  const temp = path.join(outDir, `${name}.${randomBytes(6).toString("hex")}.tmp`);
  const bytes = await io.writeBinary(doc);
  try {
    await writeFile(temp, bytes);
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
  return { file: name, bytes: bytes.byteLength, triangles: countTriangles(doc) };
}

/** Disposes accessors nothing uses any more (weld, reorder and quantise leave the arrays they replaced in the document). */
function disposeUnused(doc: Document): void {
  for (const accessor of doc.getRoot().listAccessors()) if (accessor.listParents().length === 1) accessor.dispose(); // only the root lists it
}

// X3D_DISPLAY_TRACE=1 logs each step's time and the process's memory (for measuring).
const TRACE = process.env.X3D_DISPLAY_TRACE === "1";
let traced = 0;
function trace(step: string): void {
  if (!TRACE) return;
  const now = performance.now();
  const { rss, arrayBuffers } = process.memoryUsage();
  console.log(
    `display: ${step.padEnd(18)} ${((now - (traced || now)) / 1000).toFixed(2).padStart(6)} s  rss ${(rss / 2 ** 20).toFixed(0)} MB  arrays ${(arrayBuffers / 2 ** 20).toFixed(0)} MB`,
  );
  traced = now;
}

/** What the first stage leaves: display.glb, and whether the model needs a preview. */
export interface DisplayStage {
  display: DisplayCopy;
  /** More than PREVIEW_TRIANGLES triangles: derivePreview should follow. */
  heavy: boolean;
}

/**
 * Stage 1: reads `input` and writes `<outDir>/display.glb` through a temporary name.
 *
 * Memory: a result of millions of unshared vertices is held once. The GLB is read without a
 * second copy of its bytes, and the arrays weld and quantisation replace are let go.
 */
export async function deriveDisplay(input: string, format: SourceFormat, outDir: string): Promise<DisplayStage> {
  trace("start");
  const io = await createIO();
  const doc = format === "glb" ? await readGlbFile(input) : await readSource(await readFile(input), format);
  doc.setLogger(new Logger(Logger.Verbosity.WARN)); // not every transform's progress on the server's console
  trace("read");
  // Duplicates merge only under the same name: part and material names are kept.
  await doc.transform(dedup({ keepUniqueNames: true }), weld());
  disposeUnused(doc);
  trace("dedup + weld");
  const heavy = countTriangles(doc) > PREVIEW_TRIANGLES;
  await mkdir(outDir, { recursive: true });
  await compress(doc, DISPLAY);
  disposeUnused(doc);
  trace("compress");
  const display = await writeCopy(io, doc, outDir, "display.glb");
  trace("write display");
  if (!heavy) await rm(path.join(outDir, "preview.glb"), { force: true }); // a stale one from an earlier derivation
  return { display, heavy };
}

/**
 * Stage 2, for heavy models: simplifies `<outDir>/display.glb` (welded, and its 14-bit
 * positions finer than the preview keeps) into `<outDir>/preview.glb`. A stage of its own, so
 * that the runner can give it a fresh thread: the simplifier's and the encoder's WebAssembly
 * memories never shrink, and in one thread the two peaks would add up.
 */
export async function derivePreview(outDir: string): Promise<DisplayCopy> {
  const io = await createIO();
  const doc = await readGlbFile(path.join(outDir, "display.glb"));
  doc.setLogger(new Logger(Logger.Verbosity.WARN));
  trace("read display");
  await simplifyTo(doc, PREVIEW_TARGET);
  disposeUnused(doc);
  trace("simplify");
  await doc.transform(dequantize()); // quantised afresh at the preview's own bits
  await compress(doc, PREVIEW);
  const preview = await writeCopy(io, doc, outDir, "preview.glb");
  trace("preview");
  return preview;
}

/**
 * Writes `<outDir>/display.glb`, and `<outDir>/preview.glb` when the model has more than
 * PREVIEW_TRIANGLES triangles, in this thread (runDisplayJob runs the two stages in workers).
 */
export async function deriveDisplayCopies(input: string, format: SourceFormat, outDir: string): Promise<DisplayCopies> {
  const { display, heavy } = await deriveDisplay(input, format, outDir);
  return { display, preview: heavy ? await derivePreview(outDir) : null };
}
