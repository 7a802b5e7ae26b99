/**
 * The option matrix as the studio's forms apply it while the user edits, and as the server
 * actions apply it again before calling the service: which options exist for which model or
 * mode, their defaults, their ranges, the multi-view bit string and the cost of a task.
 * Problems are the error catalogue's sentences, so the form and the service say the same thing.
 * Pure; safe to import from client components.
 */
import { DEFAULT_COSTS, type CostTable } from "../costs";
import { userMessage } from "../errors";
import { MODELS, VIEWS, type Model, type RequestType, type Resolution, type View } from "../options";
import { DEPTH_SPEC, type DepthSpec } from "../endpoints/depth";
import { onStep, type EndpointSpec, type Fields, type FormValuesOf, type ValuesOf } from "../endpoints/field";
import { formApplies, formProblems, formStart, formWire } from "./endpoint-form";
import { allowedOf, applies, checkValue, defaultOf, type Problem } from "../endpoints/read";
import { SEGMENTATION_SPEC } from "../endpoints/segmentation";
import { SPLIT_SPEC, type SplitSpec } from "../endpoints/split";
import { SUBMIT_TASK_SPEC, type SubmitTaskSpec } from "../endpoints/submit-task";

export { onStep };

// ---------------------------------------------------------------- image to 3D and texture

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

export type Problems = Partial<Record<string, string>>;

/** Problems by field, worded by the catalogue; the first problem of a field wins. */
export function byField(problems: readonly Problem[]): Problems {
  const out: Problems = {};
  for (const p of problems) out[p.field] ??= userMessage(p.code);
  return out;
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

/** Which fields of an endpoint's form show for these values. */
export function shownFields<F extends Fields, K extends keyof F & string>(
  spec: EndpointSpec<F>,
  names: readonly K[],
  values: ValuesOf<F>,
): Record<K, boolean> {
  const out = {} as Record<K, boolean>;
  for (const name of names) out[name] = formApplies(spec, name, values);
  return out;
}

// ---------------------------------------------------------------- multi-view

/** Slots filled with something (an upload id, a file), by view. */
export type ViewSlots<T> = Partial<Record<View, T | null | undefined>>;

/** The multi_images_bit for filled slots: position i is 1 when view i (front, back, left, right) is filled. */
export function viewBits(slots: ViewSlots<unknown>): string {
  return VIEWS.map((v) => (slots[v] ? "1" : "0")).join("");
}

/** The filled slots' contents in the order they are sent (front, back, left, right). */
export function viewsInOrder<T>(slots: ViewSlots<T>): T[] {
  return VIEWS.flatMap((v) => (slots[v] ? [slots[v] as T] : []));
}

/** Which view each sent file is, given the bit string: the inverse of viewsInOrder. */
export function slotsFromBits<T>(bits: string, items: readonly T[]): ViewSlots<T> {
  const slots: ViewSlots<T> = {};
  let next = 0;
  VIEWS.forEach((v, i) => {
    if (bits[i] === "1" && next < items.length) slots[v] = items[next++];
  });
  return slots;
}

/** The multi-view problem, if any: the front view is required. */
export function viewsProblem(slots: ViewSlots<unknown>): string | undefined {
  return slots.front ? undefined : userMessage(10031021);
}

// ---------------------------------------------------------------- depth

export interface DepthFields {
  degree_rmbg: boolean;
  shape_base: boolean;
  thickness_base: boolean;
}

/** Options of depth/create-task the studio's form edits (response_format is always url). */
export type DepthOptions = FormValuesOf<DepthSpec["fields"]>;

export type WireDepthOptions = Omit<DepthOptions, "degree_rmbg" | "shape_base" | "thickness_base"> &
  Partial<Pick<DepthOptions, "degree_rmbg" | "shape_base" | "thickness_base">>;

export const DEPTH_FORM_DEFAULTS: DepthOptions = formStart(DEPTH_SPEC);

/** Depth fields that apply: background-removal strength with rmbg=1, base shape and thickness with rmbg=0. */
export function depthFieldsFor(rmbg: 0 | 1): DepthFields {
  return shownFields(DEPTH_SPEC, ["degree_rmbg", "shape_base", "thickness_base"], asDepth({ ...DEPTH_FORM_DEFAULTS, rmbg }));
}

const asDepth = (o: DepthOptions): ValuesOf<DepthSpec["fields"]> => ({ ...o, response_format: "url" });

/** Range and step problems of the depth fields that apply, by wire field name. */
export function depthOptionProblems(o: DepthOptions): Problems {
  return byField(formProblems(DEPTH_SPEC, asDepth(o)));
}

/** The depth options to send: only the fields of the chosen rmbg mode. */
export function wireDepthOptions(o: DepthOptions): WireDepthOptions {
  return formWire(DEPTH_SPEC, asDepth(o)) as WireDepthOptions;
}

// ---------------------------------------------------------------- split

export type SplitOptions = ValuesOf<SplitSpec["fields"]>;

export type WireSplitOptions = Pick<SplitOptions, "model" | "format"> & Partial<Omit<SplitOptions, "model" | "format">>;

export interface SplitFields {
  part: boolean;
  joint: boolean;
  merge: boolean;
  level: boolean;
}

export const SPLIT_FORM_DEFAULTS: SplitOptions = formStart(SPLIT_SPEC);

/** Split fields that apply: part, joint and merge (with a joint) for characters; level for general models. */
export function splitFieldsFor(model: SplitOptions["model"], joint: SplitOptions["joint"]): SplitFields {
  return shownFields(SPLIT_SPEC, ["part", "joint", "merge", "level"], { ...SPLIT_FORM_DEFAULTS, model, joint });
}

/** The split options to send: only the fields that apply to the model and joint. */
export function wireSplitOptions(o: SplitOptions): WireSplitOptions {
  return formWire(SPLIT_SPEC, o) as WireSplitOptions;
}

// ---------------------------------------------------------------- cost and balance

export type CostSpec =
  | { kind: "image-to-3d" | "texture"; model: Model; resolution: Resolution; request_type: RequestType }
  | { kind: "split" | "depth" | "segmentation" };

/** Credits a task costs; undefined for a model/resolution pair the table does not list. */
export function taskCost(spec: CostSpec, table: CostTable = DEFAULT_COSTS): number | undefined {
  if (spec.kind === "image-to-3d" || spec.kind === "texture") {
    return SUBMIT.cost(table, { ...defaultsFor(spec.model, spec.request_type), resolution: spec.resolution });
  }
  if (spec.kind === "split") return SPLIT_SPEC.cost(table, SPLIT_FORM_DEFAULTS);
  if (spec.kind === "depth") return DEPTH_SPEC.cost(table, formStart(DEPTH_SPEC));
  return SEGMENTATION_SPEC.cost(table, formStart(SEGMENTATION_SPEC));
}

/** Credits missing to pay for a task (0 when the balance covers it or is unknown). */
export function shortfall(balance: number | undefined, cost: number | undefined): number {
  return balance === undefined || cost === undefined ? 0 : Math.max(0, cost - balance);
}
