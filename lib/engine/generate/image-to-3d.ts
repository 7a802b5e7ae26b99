/**
 * Image-to-3D: one image -> inflated silhouette (inflate.ts); several views -> visual
 * hull (visual-hull.ts); either brought to the `face` target (face-target.ts). Texture
 * (request_type 3, and request_type 2 on the given mesh): every view projected onto
 * what it sees best, in one atlas (texture.ts).
 */
import { RESOLUTION_INFO, type Resolution, type ResolutionInfo } from "@/lib/x3d/options";
import { readMeshFile } from "@/lib/engine/formats/read-mesh";
import type { MeshPart, Scene } from "@/lib/engine/mesh/types";
import { InputContentError } from "./errors";
import { type IndexedMesh, meshForTarget } from "./face-target";
import { type DecodedImage, decodeImage, foregroundMask } from "./image-input";
import { inflateSilhouette } from "./inflate";
import type { ImageTo3DJob, View } from "./job";
import { creaseWeld } from "./crease-weld";
import { type Bounds, meshBounds, sceneBounds, vertexNormals } from "./mesh-ops";
import { textureMesh } from "./texture";
import { visualHull } from "./visual-hull";

/** Height of generated models, millimetres. */
export const MODEL_HEIGHT_MM = 100;
/** Background colour tolerance for rmbg (normalised RGB distance). */
const RMBG_TOLERANCE = 0.06;

/** The embedded service's detail per nominal size (RESOLUTION_INFO's `size`): grid cells across the longest side, and the working image and atlas size. */
const DETAIL: Record<ResolutionInfo["size"], { cells: number; imageSize: number }> = {
  512: { cells: 128, imageSize: 1024 },
  1024: { cells: 192, imageSize: 1024 },
  1536: { cells: 256, imageSize: 2048 },
  2048: { cells: 320, imageSize: 2048 },
};

/** Grid cells across the model's longest side for a `resolution` option. */
export function gridCellsFor(resolution: Resolution): number {
  return DETAIL[RESOLUTION_INFO[resolution].size].cells;
}

/** Working size of the input images (longest side) and of the texture atlas. */
export function imageSizeFor(resolution: Resolution): number {
  return DETAIL[RESOLUTION_INFO[resolution].size].imageSize;
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

/** request_type 2's mesh, ready for texturing: all parts in one welded mesh (crease-weld.ts). */
export interface TextureInput {
  positions: Float32Array;
  indices: Uint32Array;
  /** Name and triangle count of each part, in order (its triangles follow the previous part's). */
  parts: { name: string; triangles: number }[];
  /** The whole scene's box, which the views are fitted to. */
  bounds: Bounds;
}

/**
 * The given scene as one mesh whose vertices are shared except at creases. The scene's own
 * arrays are not kept: once the caller lets go of the scene, they can be collected.
 */
export function textureInput(scene: Scene): TextureInput {
  const { positions, indices } = creaseWeld(scene.parts);
  return {
    positions,
    indices,
    parts: scene.parts.map((p) => ({ name: p.name, triangles: p.indices.length / 3 })),
    bounds: sceneBounds(scene),
  };
}

/**
 * request_type 2: the given mesh keeps its geometry, parts and triangle order (positions and
 * triangles exactly; vertices are shared except at creases, and get new normals and uvs);
 * it is textured from the views as one mesh (one atlas), then cut back into its parts.
 */
export function textureExistingScene(
  input: TextureInput,
  views: LoadedView[],
  opts: { pbr: boolean; shading: number; atlasSize: number },
): Scene {
  const all = textureMesh(input.positions, input.indices, views, { ...opts, bounds: input.bounds });
  const [only] = input.parts;
  if (input.parts.length === 1 && only) return { parts: [{ ...all, name: only.name }] };
  const { normals, uvs } = all;
  const parts: MeshPart[] = [];
  const remap = new Int32Array(all.positions.length / 3);
  let io = 0;
  for (const src of input.parts) {
    remap.fill(-1);
    const idx = new Uint32Array(src.triangles * 3);
    const used: number[] = [];
    for (let i = 0; i < idx.length; i++) {
      const v = all.indices[io + i]!;
      if (remap[v]! < 0) {
        remap[v] = used.length;
        used.push(v);
      }
      idx[i] = remap[v]!;
    }
    io += idx.length;
    const pick = (arr: Float32Array, k: number) => {
      const out = new Float32Array(used.length * k);
      used.forEach((v, j) => {
        for (let c = 0; c < k; c++) out[j * k + c] = arr[v * k + c]!;
      });
      return out;
    };
    parts.push({
      name: src.name,
      positions: pick(all.positions, 3),
      indices: idx,
      normals: pick(normals, 3),
      uvs: pick(uvs, 2),
      material: all.material,
    });
  }
  return { parts };
}

/** The visual hull's voxel grid grows with the cube of its cells: capped. */
const HULL_MAX_CELLS = 224;
/** Inflation grids grow with the square: a looser cap. */
const INFLATE_MAX_CELLS = 640;

/** Scales about the bottom centre so the model is `MODEL_HEIGHT_MM` tall, bottom at Y = 0. In place. */
export function normaliseHeight(positions: Float32Array): void {
  const b = meshBounds(positions);
  const s = MODEL_HEIGHT_MM / Math.max(1e-9, b.max[1] - b.min[1]);
  const cx = (b.min[0] + b.max[0]) / 2,
    cz = (b.min[2] + b.max[2]) / 2;
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
    build = (cells) =>
      inflateSilhouette(front.mask, front.image.width, front.image.height, { cells, maxTriangles: Infinity, heightMm: MODEL_HEIGHT_MM });
  } else {
    maxCells = HULL_MAX_CELLS;
    const silhouettes = views.map((v) => ({ view: v.view, mask: v.mask, width: v.image.width, height: v.image.height }));
    build = (cells) => visualHull(silhouettes, { cells, maxTriangles: Infinity, heightMm: MODEL_HEIGHT_MM });
  }
  const cells = Math.min(maxCells, opts.cells);
  const mesh = await meshForTarget(
    build,
    { cells, minCells: Math.max(24, Math.round(cells / 2)), maxCells: Math.min(maxCells, Math.round(cells * 1.6)) },
    opts.face,
  );
  normaliseHeight(mesh.positions);
  return mesh;
}

/** Geometry (and texture) from already loaded views. */
export async function sceneFromViews(
  views: LoadedView[],
  opts: { cells: number; face: number; textured: boolean; pbr: boolean; shading: number; atlasSize?: number },
): Promise<Scene> {
  const { positions, indices } = await geometryFromViews(views, opts);
  if (!opts.textured) return { parts: [{ name: "model", positions, indices, normals: vertexNormals(positions, indices) }] };
  return { parts: [textureMesh(positions, indices, views, { pbr: opts.pbr, shading: opts.shading, atlasSize: opts.atlasSize ?? 1024 })] };
}

export async function buildImageTo3DScene(job: ImageTo3DJob): Promise<Scene> {
  const maxSide = imageSizeFor(job.resolution);
  const frontInput = job.images.find((i) => i.view === "front");
  if (!frontInput) throw new InputContentError("the front view is required");
  const views = await Promise.all(job.images.map((i) => loadView(i.view, i.path, maxSide, job.rmbg)));
  const texture = { pbr: job.pbr, shading: job.shading, atlasSize: maxSide };
  if (job.requestType === 2) {
    if (!job.meshPath) throw new InputContentError("request_type 2 needs a mesh");
    // The file and the scene read from it are let go before texturing (a 200 MB mesh is 400 MB of arrays).
    const input = textureInput(await readMeshFile(job.meshPath));
    return textureExistingScene(input, views, texture);
  }
  return sceneFromViews(views, {
    ...texture,
    cells: gridCellsFor(job.resolution),
    face: job.face,
    textured: job.requestType === 3,
  });
}
