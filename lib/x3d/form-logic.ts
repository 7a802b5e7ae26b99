/**
 * The option matrix as the studio's forms apply it while the user edits, and as the server
 * actions apply it again before calling the service: which options exist for which model or
 * mode, their defaults, their ranges, the multi-view bit string and the cost of a task.
 * Problems are the error catalogue's sentences, so the form and the service say the same thing.
 * Pure; safe to import from client components.
 */
import { DEFAULT_COSTS, imageTo3dCost, type CostTable } from "./costs";
import { userMessage, type ErrorCode } from "./errors";
import {
  DEPTH_DEFAULTS,
  DEPTH_RANGES,
  FACE_RANGE,
  MODEL_INFO,
  MODELS,
  RECOMMENDED_FACES,
  SPLIT_DEFAULTS,
  SPLIT_JOINTS,
  SPLIT_LEVELS,
  VIEWS,
  type DepthFormat,
  type MeshFormat,
  type Model,
  type RequestType,
  type Resolution,
  type SplitPart,
  type View,
} from "./options";

// ---------------------------------------------------------------- image to 3D and texture

/** Resolutions a model offers, in the matrix's order. */
export const resolutionsFor = (model: Model): readonly Resolution[] => MODEL_INFO[model].resolutions;

/** The resolution kept when the model changes: the same one if the model offers it, else the model's default. */
export function fitResolution(model: Model, resolution: Resolution | undefined): Resolution {
  const info = MODEL_INFO[model];
  return resolution !== undefined && info.resolutions.includes(resolution) ? resolution : info.defaultResolution;
}

/** pbr applies to the v2.0/v2.1/v3.0 families when a texture is made (request_type 2 or 3). */
export const pbrApplies = (model: Model, requestType: RequestType): boolean => MODEL_INFO[model].pbrAndShading && requestType !== 1;
/** De-shading applies to the v2.0/v2.1/v3.0 families. */
export const shadingApplies = (model: Model): boolean => MODEL_INFO[model].pbrAndShading;
/** Whether a model can texture an existing mesh (request_type 2). */
export const canTexture = (model: Model): boolean => MODEL_INFO[model].texturesExistingMesh;
/** The models a texture task may use. */
export const TEXTURE_MODELS: readonly Model[] = MODELS.filter(canTexture);

/** The face count recommended for a resolution (the service's default). */
export const recommendedFaces = (resolution: Resolution): number => RECOMMENDED_FACES[resolution];

/** Options of submit-task the studio's forms edit (wire names). */
export interface ImageOptions {
  request_type: RequestType;
  model: Model;
  resolution: Resolution;
  pbr: 0 | 1;
  shading: number;
  face: number;
  format: MeshFormat;
  rmbg: 0 | 1;
}

/** What goes on the wire (and into studioTasks.options) for ImageOptions. */
export type WireImageOptions = {
  request_type: RequestType;
  model: Model;
  resolution: Resolution;
  pbr?: 0 | 1;
  shading?: number;
  face?: number;
  format: MeshFormat;
  rmbg: 0 | 1;
};

/** The studio's starting options for a model: its default resolution and that resolution's face count. */
export function defaultsFor(model: Model, requestType: RequestType = 3): ImageOptions {
  const resolution = MODEL_INFO[model].defaultResolution;
  // GLB rather than the service's default OBJ: one file the viewer draws and later tasks take as input.
  return { request_type: requestType, model, resolution, pbr: 1, shading: 0.5, face: recommendedFaces(resolution), format: 2, rmbg: 1 };
}

/** Options after a change of model or resolution; a face count left at the old recommendation follows the new one. */
export function changeImageOptions(current: ImageOptions, change: { model?: Model; resolution?: Resolution }): ImageOptions {
  const model = change.model ?? current.model;
  const resolution = fitResolution(model, change.resolution ?? current.resolution);
  const followed = current.face === recommendedFaces(current.resolution);
  return { ...current, model, resolution, face: followed ? recommendedFaces(resolution) : current.face };
}

export type Problems = Partial<Record<string, string>>;

const problem = (code: ErrorCode) => userMessage(code);

/** The face-count problem, if any: a whole number from 100,000 to 5,000,000. */
export function faceProblem(face: number): string | undefined {
  return Number.isInteger(face) && face >= FACE_RANGE.min && face <= FACE_RANGE.max ? undefined : problem(10031002);
}

/** True when `value` lies on the grid of `step` (tolerating float noise). */
export function onStep(value: number, step: number): boolean {
  return Math.abs(value / step - Math.round(value / step)) < 1e-6;
}

/** Matrix problems of image-to-3D or texture options, by wire field name. */
export function imageOptionProblems(o: ImageOptions): Problems {
  const problems: Problems = {};
  if (!MODEL_INFO[o.model].resolutions.includes(o.resolution)) problems.resolution = problem(10031003);
  if (o.request_type === 2 && !canTexture(o.model)) problems.model = problem(10031017);
  if (o.request_type !== 2) {
    const face = faceProblem(o.face);
    if (face) problems.face = face;
  }
  if (shadingApplies(o.model) && !(o.shading >= 0 && o.shading <= 1 && onStep(o.shading, 0.1))) problems.shading = problem(10031020);
  return problems;
}

/** The options to send: those that apply to the model and request type (face not for texturing an existing mesh). */
export function wireImageOptions(o: ImageOptions): WireImageOptions {
  const wire: WireImageOptions = { request_type: o.request_type, model: o.model, resolution: o.resolution, format: o.format, rmbg: o.rmbg };
  if (pbrApplies(o.model, o.request_type)) wire.pbr = o.pbr;
  if (shadingApplies(o.model)) wire.shading = Number(o.shading.toFixed(1));
  if (o.request_type !== 2) wire.face = o.face;
  return wire;
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
  return slots.front ? undefined : problem(10031021);
}

// ---------------------------------------------------------------- depth

export interface DepthFields {
  degree_rmbg: boolean;
  shape_base: boolean;
  thickness_base: boolean;
}

/** Depth fields that apply: background-removal strength with rmbg=1, base shape and thickness with rmbg=0. */
export function depthFieldsFor(rmbg: 0 | 1): DepthFields {
  return { degree_rmbg: rmbg === 1, shape_base: rmbg === 0, thickness_base: rmbg === 0 };
}

export interface DepthOptions {
  model_type: "base" | "pro";
  height_relief: number;
  rmbg: 0 | 1;
  degree_rmbg: number;
  shape_base: 0 | 1;
  thickness_base: number;
  width: number;
  sculpmode: 0 | 1;
  format: DepthFormat;
}

export type WireDepthOptions = Omit<DepthOptions, "degree_rmbg" | "shape_base" | "thickness_base"> &
  Partial<Pick<DepthOptions, "degree_rmbg" | "shape_base" | "thickness_base">>;

export const DEPTH_FORM_DEFAULTS: DepthOptions = {
  model_type: DEPTH_DEFAULTS.model_type,
  height_relief: DEPTH_RANGES.height_relief.default,
  rmbg: DEPTH_DEFAULTS.rmbg,
  degree_rmbg: DEPTH_RANGES.degree_rmbg.default,
  shape_base: DEPTH_DEFAULTS.shape_base,
  thickness_base: DEPTH_RANGES.thickness_base.default,
  width: DEPTH_RANGES.width.default,
  sculpmode: DEPTH_DEFAULTS.sculpmode,
  // A printable relief (STL) is what most people come for; depth images are a choice away.
  format: 3,
};

const inRange = (v: number, r: { min: number; max: number }) => Number.isFinite(v) && v >= r.min && v <= r.max;

/** Range and step problems of the depth fields that apply, by wire field name. */
export function depthOptionProblems(o: DepthOptions): Problems {
  const r = DEPTH_RANGES;
  const fields = depthFieldsFor(o.rmbg);
  const problems: Problems = {};
  if (!inRange(o.height_relief, r.height_relief)) problems.height_relief = problem(10033007);
  if (fields.degree_rmbg && !(inRange(o.degree_rmbg, r.degree_rmbg) && onStep(o.degree_rmbg, r.degree_rmbg.step))) {
    problems.degree_rmbg = problem(10033009);
  }
  if (fields.thickness_base && !(inRange(o.thickness_base, r.thickness_base) && onStep(o.thickness_base, r.thickness_base.step))) {
    problems.thickness_base = problem(10033011);
  }
  if (!(Number.isInteger(o.width) && inRange(o.width, r.width))) problems.width = problem(10033012);
  return problems;
}

/** The depth options to send: only the fields of the chosen rmbg mode. */
export function wireDepthOptions(o: DepthOptions): WireDepthOptions {
  const { degree_rmbg, shape_base, thickness_base, ...wire } = o;
  const fields = depthFieldsFor(o.rmbg);
  return {
    ...wire,
    ...(fields.degree_rmbg ? { degree_rmbg } : {}),
    ...(fields.shape_base ? { shape_base } : {}),
    ...(fields.thickness_base ? { thickness_base } : {}),
  };
}

// ---------------------------------------------------------------- split

export interface SplitOptions {
  model: "character" | "general";
  part: SplitPart;
  joint: (typeof SPLIT_JOINTS)[number];
  merge: "yes" | "no";
  level: (typeof SPLIT_LEVELS)[number];
  format: MeshFormat;
}

export type WireSplitOptions = Pick<SplitOptions, "model" | "format"> & Partial<Omit<SplitOptions, "model" | "format">>;

export interface SplitFields {
  part: boolean;
  joint: boolean;
  merge: boolean;
  level: boolean;
}

/** Split fields that apply: part, joint and merge (with a joint) for characters; level for general models. */
export function splitFieldsFor(model: SplitOptions["model"], joint: string): SplitFields {
  const character = model === "character";
  return { part: character, joint: character, merge: character && joint !== "none", level: !character };
}

export const SPLIT_FORM_DEFAULTS: SplitOptions = { ...SPLIT_DEFAULTS, format: 2 };

/** The split options to send: only the fields that apply to the model and joint. */
export function wireSplitOptions(o: SplitOptions): WireSplitOptions {
  const fields = splitFieldsFor(o.model, o.joint);
  const wire: WireSplitOptions = { model: o.model, format: o.format };
  if (fields.part) wire.part = o.part;
  if (fields.joint) wire.joint = o.joint;
  if (fields.merge) wire.merge = o.merge;
  if (fields.level) wire.level = o.level;
  return wire;
}

// ---------------------------------------------------------------- cost and balance

export type CostSpec =
  | { kind: "image-to-3d" | "texture"; model: Model; resolution: Resolution; request_type: RequestType }
  | { kind: "split" | "depth" | "segmentation" };

/** Credits a task costs; undefined for a model/resolution pair the table does not list. */
export function taskCost(spec: CostSpec, table: CostTable = DEFAULT_COSTS): number | undefined {
  if (spec.kind === "image-to-3d" || spec.kind === "texture") return imageTo3dCost(table, spec.model, spec.resolution, spec.request_type);
  return table[spec.kind];
}

/** Credits missing to pay for a task (0 when the balance covers it or is unknown). */
export function shortfall(balance: number | undefined, cost: number | undefined): number {
  return balance === undefined || cost === undefined ? 0 : Math.max(0, cost - balance);
}
