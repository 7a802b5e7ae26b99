/**
 * Starting values of the create forms: the studio's defaults, overlaid with whatever stored
 * options of an earlier task (`?again=`) are still valid under the matrix. Pure.
 */
import type { z } from "zod";
import {
  canTexture,
  defaultsFor,
  DEPTH_FORM_DEFAULTS,
  faceProblem,
  fitResolution,
  recommendedFaces,
  SPLIT_FORM_DEFAULTS,
} from "@/lib/x3d/form-logic";
import type { DepthOptions, ImageOptions, SplitOptions } from "@/lib/x3d/form-logic";
import { DEFAULT_MODEL, isModel } from "@/lib/x3d/options";
import {
  depthOptionsSchema,
  imageOptionsSchema,
  segmentationOptionsSchema,
  splitOptionsSchema,
  type SegmentationTaskValues,
} from "./create-forms";

type Stored = Record<string, unknown> | undefined;

/** `defaults` with each stored value that its field's schema accepts. */
function pickValid<T extends object>(shape: Record<string, z.ZodType>, stored: Stored, defaults: T): T {
  const out = { ...defaults } as Record<string, unknown>;
  for (const [key, schema] of Object.entries(shape)) {
    const value = stored?.[key];
    if (value === undefined || value === null || typeof value === "object") continue;
    const parsed = schema.safeParse(String(value));
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
  }
  return out as T;
}

/** Image-to-3D (request_type 1 or 3) or texture (`texture`: request_type 2, a model that can texture) options. */
export function initialImageOptions(stored: Stored, texture = false): ImageOptions {
  const model =
    typeof stored?.model === "string" && isModel(stored.model) && (!texture || canTexture(stored.model)) ? stored.model : DEFAULT_MODEL;
  const base = defaultsFor(model, texture ? 2 : 3);
  const picked = pickValid(imageOptionsSchema.shape, stored, base);
  const resolution = fitResolution(model, picked.resolution);
  return {
    ...picked,
    model,
    request_type: texture ? 2 : picked.request_type === 1 ? 1 : 3,
    resolution,
    // Texturing sends no face count; a missing or bad one starts at the recommendation.
    face: faceProblem(picked.face) ? recommendedFaces(resolution) : picked.face,
  };
}

export function initialSplitOptions(stored: Stored): SplitOptions {
  return pickValid(splitOptionsSchema.shape, stored, SPLIT_FORM_DEFAULTS);
}

export function initialDepthOptions(stored: Stored): DepthOptions {
  return pickValid(depthOptionsSchema.shape, stored, DEPTH_FORM_DEFAULTS);
}

export function initialSegmentationOptions(stored: Stored): SegmentationTaskValues["options"] {
  return pickValid(segmentationOptionsSchema.shape, stored, { seg_level: "medium", format: 2 });
}
