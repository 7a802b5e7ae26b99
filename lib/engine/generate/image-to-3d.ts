/**
 * Image-to-3D: one image -> inflated silhouette (inflate.ts); several views -> visual
 * hull (visual-hull.ts); request_type 2 -> the given mesh, front-projected texture.
 * Textures are the front image projected along -Z (the back shows the front mirrored).
 */
import { readFile } from "node:fs/promises";
import { readMesh } from "@/lib/engine/formats/read-mesh";
import type { Material, MeshPart, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { InputContentError } from "./errors";
import { type IndexedMesh, meshForTarget } from "./face-target";
import { type DecodedImage, decodeImage, foregroundMask } from "./image-input";
import { inflateSilhouette } from "./inflate";
import type { ImageTo3DJob, View } from "./job";
import { maskBounds } from "./mask-ops";
import { meshBounds, sceneBounds, vertexNormals } from "./mesh-ops";
import { visualHull } from "./visual-hull";

/** Height of generated models, millimetres. */
export const MODEL_HEIGHT_MM = 100;
/** Background colour tolerance for rmbg (normalised RGB distance). */
const RMBG_TOLERANCE = 0.06;

/** Grid cells across the model's longest side for a `resolution` option. */
export function gridCellsFor(resolution: string): number {
  if (resolution.startsWith("2048")) return 320;
  if (resolution.startsWith("1536")) return 256;
  if (resolution.startsWith("1024")) return 192;
  if (resolution.startsWith("512")) return 128;
  return 192;
}

/** Working (and texture) size of the input images, longest side. */
export function imageSizeFor(resolution: string): number {
  return resolution.startsWith("2048") ? 2048 : 1024;
}

export interface LoadedView {
  view: View;
  image: DecodedImage;
  mask: Uint8Array;
}

export async function loadView(view: View, path: string, maxSide: number, rmbg: boolean): Promise<LoadedView> {
  const image = await decodeImage(path, { maxSide });
  return { view, image, mask: foregroundMask(image, { rmbg, tolerance: RMBG_TOLERANCE }) };
}

/**
 * The image as an opaque texture whose background is replaced by the subject's colours
 * bled outwards a few pixels, so bilinear sampling at the outline shows no halo.
 */
export function textureFromView(image: DecodedImage, mask: Uint8Array, bleed = 8): RasterImage {
  const { width: w, height: h } = image;
  const data = new Uint8Array(image.data);
  let filled = Uint8Array.from(mask);
  let next = new Uint8Array(filled);
  for (let it = 0; it < bleed; it++) {
    next.set(filled);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const p = y * w + x;
        if (filled[p]) continue;
        let r = 0, g = 0, b = 0, k = 0;
        if (x > 0 && filled[p - 1]) { r += data[(p - 1) * 4]!; g += data[(p - 1) * 4 + 1]!; b += data[(p - 1) * 4 + 2]!; k++; }
        if (x < w - 1 && filled[p + 1]) { r += data[(p + 1) * 4]!; g += data[(p + 1) * 4 + 1]!; b += data[(p + 1) * 4 + 2]!; k++; }
        if (y > 0 && filled[p - w]) { r += data[(p - w) * 4]!; g += data[(p - w) * 4 + 1]!; b += data[(p - w) * 4 + 2]!; k++; }
        if (y < h - 1 && filled[p + w]) { r += data[(p + w) * 4]!; g += data[(p + w) * 4 + 1]!; b += data[(p + w) * 4 + 2]!; k++; }
        if (!k) continue;
        data[p * 4] = Math.round(r / k); data[p * 4 + 1] = Math.round(g / k); data[p * 4 + 2] = Math.round(b / k);
        next[p] = 1;
      }
    }
    [filled, next] = [next, filled];
  }
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { width: w, height: h, data };
}

/** A small flat glTF metallic-roughness texture (G roughness, B metallic). */
export function flatMetallicRoughness(roughness = 0.65, metallic = 0): RasterImage {
  const size = 4;
  const data = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) data.set([255, Math.round(roughness * 255), Math.round(metallic * 255), 255], i * 4);
  return { width: size, height: size, data };
}

export function texturedMaterial(texture: RasterImage, pbr: boolean): Material {
  const m: Material = { name: "texture", baseColorFactor: [1, 1, 1, 1], baseColorTexture: texture, metallicFactor: 0, roughnessFactor: 0.65 };
  if (pbr) Object.assign(m, { metallicRoughnessTexture: flatMetallicRoughness(), metallicFactor: 1, roughnessFactor: 1 });
  return m;
}

/** uv = (ax * x + bx, ay * y + by) for every vertex. */
export function frontProjectUVs(positions: Float32Array, map: { ax: number; bx: number; ay: number; by: number }): Float32Array {
  const nv = positions.length / 3;
  const uvs = new Float32Array(nv * 2);
  for (let v = 0; v < nv; v++) {
    uvs[v * 2] = map.ax * positions[v * 3]! + map.bx;
    uvs[v * 2 + 1] = map.ay * positions[v * 3 + 1]! + map.by;
  }
  return uvs;
}

/** request_type 2: the mesh's front (x, y) box mapped onto the subject's box in the image. */
export function textureExistingScene(scene: Scene, front: LoadedView, pbr: boolean): Scene {
  const { width: w, height: h } = front.image;
  const mb = maskBounds(front.mask, w, h) ?? { x0: 0, y0: 0, x1: w - 1, y1: h - 1 };
  const b = sceneBounds(scene);
  const sx = Math.max(1e-9, b.max[0] - b.min[0]), sy = Math.max(1e-9, b.max[1] - b.min[1]);
  const bw = mb.x1 - mb.x0 + 1, bh = mb.y1 - mb.y0 + 1;
  const map = { ax: bw / sx / w, bx: (mb.x0 - (b.min[0] * bw) / sx) / w, ay: -bh / sy / h, by: (mb.y0 + (b.max[1] * bh) / sy) / h };
  const material = texturedMaterial(textureFromView(front.image, front.mask), pbr);
  return { parts: scene.parts.map((p): MeshPart => ({ ...p, uvs: frontProjectUVs(p.positions, map), material })) };
}

/** The visual hull's voxel grid grows with the cube of its cells: capped. */
const HULL_MAX_CELLS = 224;
/** Inflation grids grow with the square: a looser cap. */
const INFLATE_MAX_CELLS = 640;

/** Scales about the bottom centre so the model is `MODEL_HEIGHT_MM` tall, bottom at Y = 0. In place. */
export function normaliseHeight(positions: Float32Array): void {
  const b = meshBounds(positions);
  const s = MODEL_HEIGHT_MM / Math.max(1e-9, b.max[1] - b.min[1]);
  const cx = (b.min[0] + b.max[0]) / 2, cz = (b.min[2] + b.max[2]) / 2;
  for (let i = 0; i < positions.length; i += 3) {
    positions[i] = (positions[i]! - cx) * s;
    positions[i + 1] = (positions[i + 1]! - b.min[1]) * s;
    positions[i + 2] = (positions[i + 2]! - cz) * s;
  }
}

/**
 * The closed geometry for the views: one view is inflated, several carve a visual hull.
 * `cells` is the working grid of the resolution; the grid and Loop subdivision are then
 * planned so the result has `face` triangles within FACE_TOLERANCE (see face-target.ts).
 */
export async function geometryFromViews(views: LoadedView[], opts: { cells: number; face: number }): Promise<IndexedMesh> {
  const front = views.find((v) => v.view === "front");
  if (!front) throw new InputContentError("the front view is required");
  let build: (cells: number) => IndexedMesh;
  let maxCells: number;
  if (views.length === 1) {
    maxCells = INFLATE_MAX_CELLS;
    build = (cells) => inflateSilhouette(front.mask, front.image.width, front.image.height, { cells, maxTriangles: Infinity, heightMm: MODEL_HEIGHT_MM });
  } else {
    maxCells = HULL_MAX_CELLS;
    const silhouettes = views.map((v) => ({ view: v.view, mask: v.mask, width: v.image.width, height: v.image.height }));
    build = (cells) => visualHull(silhouettes, { cells, maxTriangles: Infinity, heightMm: MODEL_HEIGHT_MM });
  }
  const cells = Math.min(maxCells, opts.cells);
  const mesh = await meshForTarget(build, { cells, minCells: Math.max(24, Math.round(cells / 2)), maxCells: Math.min(maxCells, Math.round(cells * 1.6)) }, opts.face);
  normaliseHeight(mesh.positions);
  return mesh;
}

/** Geometry (and texture) from already loaded views. */
export async function sceneFromViews(views: LoadedView[], opts: { cells: number; face: number; textured: boolean; pbr: boolean; shading: number }): Promise<Scene> {
  const { positions, indices } = await geometryFromViews(views, opts);
  const part: MeshPart = { name: "model", positions, indices, normals: vertexNormals(positions, indices) };
  if (!opts.textured) return { parts: [part] };
  const front = views.find((v) => v.view === "front")!;
  return textureExistingScene({ parts: [part] }, front, opts.pbr);
}

export async function buildImageTo3DScene(job: ImageTo3DJob): Promise<Scene> {
  const maxSide = imageSizeFor(job.resolution);
  const frontInput = job.images.find((i) => i.view === "front");
  if (!frontInput) throw new InputContentError("the front view is required");
  if (job.requestType === 2) {
    if (!job.meshPath) throw new InputContentError("request_type 2 needs a mesh");
    const [scene, front] = await Promise.all([
      readFile(job.meshPath).then((b) => readMesh(new Uint8Array(b.buffer, b.byteOffset, b.byteLength))),
      loadView("front", frontInput.path, maxSide, job.rmbg),
    ]);
    return textureExistingScene(scene, front, job.pbr);
  }
  const views = await Promise.all(job.images.map((i) => loadView(i.view, i.path, maxSide, job.rmbg)));
  return sceneFromViews(views, {
    cells: gridCellsFor(job.resolution),
    face: job.face,
    textured: job.requestType === 3,
    pbr: job.pbr,
    shading: job.shading,
  });
}
