/**
 * What a worker thread is asked to compute, and what it answers. Inputs are file paths
 * (the engine stores uploads and fetched URLs on disk first); options are already
 * validated and defaulted by lib/engine/validate.
 */

export type View = "front" | "back" | "left" | "right";

/** Image-to-3D formats: 1 obj, 2 glb, 3 stl, 4 fbx, 5 usdz, 6 3mf. */
export type MeshFormat = 1 | 2 | 3 | 4 | 5 | 6;
/** Depth formats: 1 exr, 2 png, 3 stl, 4 glb, 5 3mf, 6 bmp. */
export type DepthFormat = 1 | 2 | 3 | 4 | 5 | 6;

export interface ImageTo3DJob {
  kind: "image-to-3d";
  /** At least the front view. */
  images: { view: View; path: string }[];
  /** 1 geometry only, 2 texture the given mesh, 3 geometry and texture. */
  requestType: 1 | 2 | 3;
  model: string;
  resolution: string;
  /** Triangle target. */
  face: number;
  pbr: boolean;
  rmbg: boolean;
  /** De-shading strength 0..1. */
  shading: number;
  format: MeshFormat;
  /** request_type 2: the GLB to texture. */
  meshPath?: string;
}

export interface SplitJob {
  kind: "split";
  meshPath: string;
  model: "character" | "general";
  part: "a" | "b" | "c" | "d" | "e" | "f";
  joint: "none" | "ball" | "dovetail" | "pin";
  merge: boolean;
  level: "low" | "medium" | "high";
  format: MeshFormat;
}

export interface DepthJob {
  kind: "depth";
  imagePath: string;
  modelType: "base" | "pro";
  heightRelief: number;
  rmbg: boolean;
  degreeRmbg: number;
  /** 0 square, 1 circle. */
  shapeBase: 0 | 1;
  /** Millimetres. */
  thicknessBase: number;
  /** Millimetres. */
  width: number;
  /** 0 emboss, 1 engrave. */
  sculpmode: 0 | 1;
  format: DepthFormat;
}

export interface SegmentationJob {
  kind: "segmentation";
  meshPath: string;
  segLevel: "low" | "medium" | "high";
  /** 1..5 as image-to-3D's formats. */
  format: 1 | 2 | 3 | 4 | 5;
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
