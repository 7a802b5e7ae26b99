/**
 * Runs one generation job (in a worker thread): dispatches on the job kind and encodes
 * the result and its cover.
 */
import { writeMesh } from "@/lib/engine/formats";
import { writeBmp, writeExr, writePng } from "@/lib/engine/formats/raster";
import { readMeshFile } from "@/lib/engine/formats/read-mesh";
import type { Scene } from "@/lib/engine/mesh/types";
import { type CoverOptions, depthCover, renderCover } from "./cover";
import { depthFromImage, depthSizeFor, reliefScene } from "./depth";
import { decodeImage } from "./image-input";
import { buildImageTo3DScene } from "./image-to-3d";
import type { DepthJob, Job, JobResult, MeshFormat } from "./job";
import { buildSegmentationScene } from "./segmentation";
import { buildSplitScene } from "./split";

async function meshResult(scene: Scene, format: MeshFormat, cover: CoverOptions = {}): Promise<JobResult> {
  const [{ bytes, ext }, png] = await Promise.all([writeMesh(scene, format), renderCover(scene, cover)]);
  return { result: bytes, resultExt: ext, cover: png, coverExt: "png" };
}

/** Depth formats 3 stl, 4 glb, 5 3mf as image-to-3D mesh formats. */
const DEPTH_MESH_FORMAT: Partial<Record<DepthJob["format"], MeshFormat>> = { 3: 3, 4: 2, 5: 6 };

async function runDepth(job: DepthJob): Promise<JobResult> {
  const image = await decodeImage(job.imagePath, { maxSide: depthSizeFor(job.modelType), enlarge: true });
  const depth = depthFromImage(image, { rmbg: job.rmbg, tolerance: job.degreeRmbg, invert: job.sculpmode === 1 });
  const meshFormat = DEPTH_MESH_FORMAT[job.format];
  if (meshFormat) {
    const scene = reliefScene(depth, {
      widthMm: job.width,
      reliefMm: job.heightRelief,
      baseMm: job.thicknessBase,
      shape: job.shapeBase,
    });
    return meshResult(scene, meshFormat, { elevationDeg: 55, azimuthDeg: 20 }); // reliefs lie flat
  }
  const { width, height, gray } = depth;
  const cover = await depthCover(width, height, gray);
  if (job.format === 1) return { result: await writeExr(width, height, gray), resultExt: "exr", cover, coverExt: "png" };
  if (job.format === 6) return { result: await writeBmp({ width, height, gray }), resultExt: "bmp", cover, coverExt: "png" };
  return { result: await writePng({ width, height, gray }), resultExt: "png", cover, coverExt: "png" };
}

export async function runJob(job: Job): Promise<JobResult> {
  switch (job.kind) {
    case "image-to-3d":
      return meshResult(await buildImageTo3DScene(job), job.format);
    case "split":
      return meshResult(await buildSplitScene(await readMeshFile(job.meshPath), job), job.format);
    case "segmentation":
      return meshResult(buildSegmentationScene(await readMeshFile(job.meshPath), job.segLevel), job.format);
    case "depth":
      return runDepth(job);
    default: {
      const never: never = job;
      throw new Error(`unknown job kind ${(never as { kind: string }).kind}`);
    }
  }
}
