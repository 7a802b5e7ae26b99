/**
 * What a worker thread is asked to compute, and what it answers. Inputs are file paths
 * (the engine stores uploads and fetched URLs on disk first); options are already
 * validated and defaulted by lib/engine/validate.
 */
import type { View } from "@/lib/x3d/options";
import type { DepthSpec } from "@/lib/x3d/endpoints/depth";
import type { JobOf } from "@/lib/x3d/endpoints/field";
import type { SegmentationSpec } from "@/lib/x3d/endpoints/segmentation";
import type { SplitSpec } from "@/lib/x3d/endpoints/split";
import type { SubmitTaskSpec } from "@/lib/x3d/endpoints/submit-task";

export type { View } from "@/lib/x3d/options";
/** Image-to-3D formats: 1 obj, 2 glb, 3 stl, 4 fbx, 5 usdz, 6 3mf. */
export type { MeshFormat } from "@/lib/x3d/options";
/** Depth formats: 1 exr, 2 png, 3 stl, 4 glb, 5 3mf, 6 bmp. */

/** The options part of each job, derived from the endpoint's spec (job names, yes/no as booleans). */
export type ImageTo3DOptions = JobOf<SubmitTaskSpec["fields"]>;
export type SplitOptions = JobOf<SplitSpec["fields"]>;
export type DepthOptions = JobOf<DepthSpec["fields"]>;
export type SegmentationOptions = JobOf<SegmentationSpec["fields"]>;

export interface ImageTo3DJob extends ImageTo3DOptions {
  kind: "image-to-3d";
  /** At least the front view. */
  images: { view: View; path: string }[];
  /** request_type 2: the GLB to texture. */
  meshPath?: string;
}

export interface SplitJob extends SplitOptions {
  kind: "split";
  meshPath: string;
}

export interface DepthJob extends DepthOptions {
  kind: "depth";
  imagePath: string;
}

export interface SegmentationJob extends SegmentationOptions {
  kind: "segmentation";
  meshPath: string;
}

export type Job = ImageTo3DJob | SplitJob | DepthJob | SegmentationJob;

/** What the worker wrote into the task's folder: the file names of the result and its cover. */
export interface StoredResult {
  resultFile: string;
  coverFile: string;
}

export interface JobResult {
  result: Uint8Array;
  /** File extension of the result without the dot: "glb", "obj", "zip", "exr", ... */
  resultExt: string;
  cover: Uint8Array;
  coverExt: "png" | "webp";
}
