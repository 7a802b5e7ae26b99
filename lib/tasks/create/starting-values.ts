/**
 * Starting values of the create forms: the studio's defaults, overlaid with whatever stored
 * options of an earlier task (`?again=`) are still valid under the matrix. Pure.
 */
import { DEPTH_SPEC } from "@/lib/x3d/endpoints/depth";
import type { EndpointSpec, Fields } from "@/lib/x3d/endpoints/field";
import { parseText } from "@/lib/x3d/endpoints/read";
import { SEGMENTATION_SPEC } from "@/lib/x3d/endpoints/segmentation";
import { SPLIT_SPEC } from "@/lib/x3d/endpoints/split";
import { SUBMIT_TASK_SPEC } from "@/lib/x3d/endpoints/submit-task";
import { DEPTH_FORM_DEFAULTS, type DepthOptions } from "@/lib/x3d/forms/depth";
import { formFields, formStart } from "@/lib/x3d/forms/endpoint-form";
import { canTexture, defaultsFor, faceProblem, fitResolution, recommendedFaces, type ImageOptions } from "@/lib/x3d/forms/image";
import { SPLIT_FORM_DEFAULTS, type SplitOptions } from "@/lib/x3d/forms/split";
import { DEFAULT_MODEL, isModel } from "@/lib/x3d/options";
import type { SegmentationTaskValues } from "./parse-form";

type Stored = Record<string, unknown> | undefined;

/** `defaults` with each stored value of the right type for its field (lib/x3d/endpoints). */
function pickValid<F extends Fields, T extends object>(spec: EndpointSpec<F>, stored: Stored, defaults: T): T {
  const out = { ...defaults } as Record<string, unknown>;
  for (const name of formFields(spec)) {
    const field = spec.fields[name];
    const value = stored?.[name];
    if (!field || value === undefined || value === null || typeof value === "object") continue;
    const parsed = parseText(name, field, String(value));
    if (parsed.ok) out[name] = parsed.value;
  }
  return out as T;
}

/** Image-to-3D (request_type 1 or 3) or texture (`texture`: request_type 2, a model that can texture) options. */
export function initialImageOptions(stored: Stored, texture = false): ImageOptions {
  const model =
    typeof stored?.model === "string" && isModel(stored.model) && (!texture || canTexture(stored.model)) ? stored.model : DEFAULT_MODEL;
  const base = defaultsFor(model, texture ? 2 : 3);
  const picked = pickValid(SUBMIT_TASK_SPEC, stored, base);
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
  return pickValid(SPLIT_SPEC, stored, SPLIT_FORM_DEFAULTS);
}

export function initialDepthOptions(stored: Stored): DepthOptions {
  return pickValid(DEPTH_SPEC, stored, DEPTH_FORM_DEFAULTS);
}

export function initialSegmentationOptions(stored: Stored): SegmentationTaskValues["options"] {
  return pickValid(SEGMENTATION_SPEC, stored, formStart(SEGMENTATION_SPEC));
}
