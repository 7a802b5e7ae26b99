/**
 * The image-to-3D and texture forms by submit-task's spec, as the studio applies it while the
 * user edits and again in the server actions before calling the service: which resolutions and
 * options a model offers, the starting values, the face count that follows the resolution,
 * the problems and what is sent. Pure; safe to import from client components.
 */
import type { ValuesOf } from "../endpoints/field";
import { allowedOf, applies, checkValue, defaultOf } from "../endpoints/read";
import { SUBMIT_TASK_SPEC, type SubmitTaskSpec } from "../endpoints/submit-task";
import { userMessage } from "../errors";
import { MODELS, type Model, type RequestType, type Resolution } from "../options";
import { formProblems, formStart, formWire } from "./endpoint-form";
import { byField, type Problems } from "./problems";

const SUBMIT = SUBMIT_TASK_SPEC;
/** Values to ask the spec's rules about (rules read only the fields they name). */
const ask = (v: Partial<ImageOptions>) => ({ ...defaultsFor(v.model ?? SUBMIT.fields.model.default), ...v });

/** Resolutions a model offers, in the matrix's order. */
export const resolutionsFor = (model: Model): readonly Resolution[] =>
  (allowedOf(SUBMIT, "resolution", ask({ model })) as readonly Resolution[] | undefined) ?? SUBMIT.fields.resolution.values;

/** The resolution kept when the model changes: the same one if the model offers it, else the model's default. */
export function fitResolution(model: Model, resolution: Resolution | undefined): Resolution {
  return resolution !== undefined && resolutionsFor(model).includes(resolution) ? resolution : modelDefaultResolution(model);
}

function modelDefaultResolution(model: Model): Resolution {
  const values = { model } as ImageOptions;
  return defaultOf(SUBMIT, "resolution", values) as Resolution;
}

/** pbr applies to the v2.0/v2.1/v3.0 families when a texture is made (request_type 2 or 3). */
export const pbrApplies = (model: Model, requestType: RequestType): boolean =>
  applies(SUBMIT, "pbr", ask({ model, request_type: requestType }));
/** De-shading applies to the v2.0/v2.1/v3.0 families. */
export const shadingApplies = (model: Model): boolean => applies(SUBMIT, "shading", ask({ model }));
/** Whether a model can texture an existing mesh (request_type 2). */
export const canTexture = (model: Model): boolean =>
  !formProblems(SUBMIT, ask({ model, request_type: 2 })).some((p) => p.field === "model");
/** The models a texture task may use. */
export const TEXTURE_MODELS: readonly Model[] = MODELS.filter(canTexture);

/** The face count recommended for a resolution (the service's default). */
export const recommendedFaces = (resolution: Resolution): number => defaultOf(SUBMIT, "face", { resolution } as ImageOptions) as number;

/** Options of submit-task the studio's forms edit (wire names). */
export type ImageOptions = ValuesOf<SubmitTaskSpec["fields"]>;

/** What goes on the wire (and into studioTasks.options) for ImageOptions. */
export type WireImageOptions = Pick<ImageOptions, "request_type" | "model" | "resolution" | "format" | "rmbg"> &
  Partial<Pick<ImageOptions, "pbr" | "shading" | "face">>;

/** The studio's starting options for a model: its default resolution and that resolution's face count. */
export function defaultsFor(model: Model, requestType: RequestType = 3): ImageOptions {
  return formStart(SUBMIT, { model, request_type: requestType });
}

/** Options after a change of model or resolution; a face count left at the old recommendation follows the new one. */
export function changeImageOptions(current: ImageOptions, change: { model?: Model; resolution?: Resolution }): ImageOptions {
  const model = change.model ?? current.model;
  const resolution = fitResolution(model, change.resolution ?? current.resolution);
  const followed = current.face === recommendedFaces(current.resolution);
  return { ...current, model, resolution, face: followed ? recommendedFaces(resolution) : current.face };
}

/** The face-count problem, if any: a whole number within the spec's range. */
export function faceProblem(face: number): string | undefined {
  const field = SUBMIT.fields.face;
  return checkValue("face", field, face).ok ? undefined : userMessage(field.code);
}

/** Matrix problems of image-to-3D or texture options, by wire field name. */
export function imageOptionProblems(o: ImageOptions): Problems {
  return byField(formProblems(SUBMIT, o));
}

/** The options to send: those that apply to the model and request type (face not for texturing an existing mesh). */
export function wireImageOptions(o: ImageOptions): WireImageOptions {
  return formWire(SUBMIT, o) as WireImageOptions;
}
