/**
 * The option matrix of the x3d Open API (open-api.md sections 4.2, 4.5, 4.7 and the
 * addendum): models, resolutions, defaults, which options apply to which model, the
 * recommended face counts and the credit costs. Safe to import from client components.
 */

export const MODELS = [
  "x3dv1.5",
  "x3dv2.0",
  "x3dv2.1",
  "x3dv3.0",
  "scene-portraitv1.5",
  "scene-portraitv2.0",
  "scene-portraitv2.1",
] as const;
export type Model = (typeof MODELS)[number];

export const RESOLUTIONS = ["512", "1024", "1536", "1536fast", "1536pro", "1536profast", "2048quality", "2048master"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** Credits per task for [request_type 1, 2, 3] (addendum "Limits and money"). */
export type CostTriple = readonly [number, number, number];
const standard: CostTriple = [40, 50, 50];
const pro: CostTriple = [60, 70, 70];

interface ModelRow {
  label: string;
  /** The resolutions the model offers, in the matrix's order, with their price. */
  prices: Partial<Record<Resolution, CostTriple>>;
  /** The spec names only v3.0's default; for the others we take the standard-quality entry. */
  defaultResolution: Resolution;
  /** pbr and shading apply (v2.0, v2.1 and v3.0 families). */
  pbrAndShading: boolean;
  /** request_type 2 (texture an existing mesh) is allowed. */
  texturesExistingMesh: boolean;
}

/**
 * The model matrix: one row a model. Offering a resolution is one entry of `prices`.
 */
const MODEL_ROWS: Record<Model, ModelRow> = {
  "x3dv1.5": {
    label: "v1.5",
    prices: { "512": [5, 15, 15], "1024": [10, 20, 20], "1536": standard, "1536pro": pro },
    defaultResolution: "1536",
    pbrAndShading: false,
    texturesExistingMesh: true,
  },
  "x3dv2.0": {
    label: "v2.0",
    prices: { "1536": standard, "1536pro": pro },
    defaultResolution: "1536",
    pbrAndShading: true,
    texturesExistingMesh: false,
  },
  "x3dv2.1": {
    label: "v2.1",
    prices: { "1536fast": standard, "1536pro": pro },
    defaultResolution: "1536pro",
    pbrAndShading: true,
    texturesExistingMesh: false,
  },
  "x3dv3.0": {
    label: "v3.0",
    prices: { "2048quality": [80, 90, 90], "2048master": [100, 110, 110] },
    defaultResolution: "2048quality",
    pbrAndShading: true,
    texturesExistingMesh: true,
  },
  "scene-portraitv1.5": {
    label: "Scene portrait v1.5",
    prices: { "1536": standard },
    defaultResolution: "1536",
    pbrAndShading: false,
    texturesExistingMesh: true,
  },
  "scene-portraitv2.0": {
    label: "Scene portrait v2.0",
    prices: { "1536pro": standard },
    defaultResolution: "1536pro",
    pbrAndShading: true,
    texturesExistingMesh: false,
  },
  "scene-portraitv2.1": {
    label: "Scene portrait v2.1",
    prices: { "1536profast": standard, "1536pro": standard },
    defaultResolution: "1536pro",
    pbrAndShading: true,
    texturesExistingMesh: false,
  },
};

export interface ModelInfo extends ModelRow {
  resolutions: readonly Resolution[];
}

/** The matrix with each model's resolutions listed. */
export function modelInfo(rows: Record<Model, ModelRow>): Record<Model, ModelInfo> {
  const out = {} as Record<Model, ModelInfo>;
  for (const model of MODELS) {
    const row = rows[model];
    out[model] = { ...row, resolutions: RESOLUTIONS.filter((r) => row.prices[r] !== undefined) };
  }
  return out;
}

export const MODEL_INFO: Record<Model, ModelInfo> = modelInfo(MODEL_ROWS);

export const DEFAULT_MODEL: Model = "x3dv3.0";

export const REQUEST_TYPES = { geometry: 1, texture: 2, geometryAndTexture: 3 } as const;
export type RequestType = 1 | 2 | 3;

export interface ResolutionInfo {
  /** The nominal size the name starts with (512, 1024, 1536, 2048): the embedded service's detail follows it. */
  size: 512 | 1024 | 1536 | 2048;
  /** The recommended face (triangle) count, and the default when `face` is absent. */
  faces: number;
}

/** One row a resolution. */
export const RESOLUTION_INFO: Record<Resolution, ResolutionInfo> = {
  "512": { size: 512, faces: 500_000 },
  "1024": { size: 1024, faces: 1_000_000 },
  "1536": { size: 1536, faces: 2_000_000 },
  "1536fast": { size: 1536, faces: 2_000_000 },
  "1536pro": { size: 1536, faces: 2_000_000 },
  "1536profast": { size: 1536, faces: 2_000_000 },
  "2048quality": { size: 2048, faces: 2_000_000 },
  "2048master": { size: 2048, faces: 5_000_000 },
};

export const FACE_RANGE = { min: 100_000, max: 5_000_000 } as const;
/** De-shading strength of submit-task. */
export const SHADING_RANGE = { min: 0, max: 1, step: 0.1 } as const;

export const MESH_FORMATS = { 1: "obj", 2: "glb", 3: "stl", 4: "fbx", 5: "usdz", 6: "3mf" } as const;
export type MeshFormat = keyof typeof MESH_FORMATS;
export const DEPTH_FORMATS = { 1: "exr", 2: "png", 3: "stl", 4: "glb", 5: "3mf", 6: "bmp" } as const;
export type DepthFormat = keyof typeof DEPTH_FORMATS;
/** Segmentation takes image-to-3D's formats 1..5 (addendum). */
export const SEGMENTATION_FORMATS = { 1: "obj", 2: "glb", 3: "stl", 4: "fbx", 5: "usdz" } as const;

export { IMAGE_TYPES, LIMITS, MESH_TYPES } from "./file-limits";

export const VIEWS = ["front", "back", "left", "right"] as const;
export type View = (typeof VIEWS)[number];

export const SUBMIT_DEFAULTS = {
  requestType: 3,
  model: DEFAULT_MODEL,
  pbr: 1,
  rmbg: 1,
  shading: 0.5,
  format: 1,
} as const;

export const SPLIT_MODELS = ["character", "general"] as const;
export const SPLIT_PARTS = {
  a: "6 parts",
  b: "5 parts",
  c: "4 parts without head",
  d: "4 parts with head",
  e: "3 parts",
  f: "2 parts",
} as const;
export type SplitPart = keyof typeof SPLIT_PARTS;
export const SPLIT_JOINTS = ["none", "ball", "dovetail", "pin"] as const;
export const SPLIT_LEVELS = ["low", "medium", "high"] as const;
export const SPLIT_DEFAULTS = {
  model: "character",
  part: "a",
  joint: "ball",
  merge: "yes",
  level: "medium",
  format: 1,
} as const;

/** Ranges of depth/create-task; `step` is the granularity the value must respect. */
export const DEPTH_RANGES = {
  height_relief: { min: 0.1, max: 50, default: 1.3 },
  degree_rmbg: { min: 0, max: 1, step: 0.01, default: 0.02 },
  thickness_base: { min: 0.1, max: 20, step: 0.1, default: 1.0 },
  width: { min: 20, max: 600, default: 40 },
} as const;
export const DEPTH_MODEL_TYPES = ["base", "pro"] as const;
export const DEPTH_DEFAULTS = {
  model_type: "pro",
  rmbg: 1,
  shape_base: 0,
  sculpmode: 0,
  response_format: "url",
} as const;

export const SEG_LEVELS = ["low", "medium", "high"] as const;
export const SEGMENTATION_DEFAULTS = { seg_level: "medium", format: 1 } as const;

export function isModel(value: string): value is Model {
  return (MODELS as readonly string[]).includes(value);
}
