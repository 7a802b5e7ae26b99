/**
 * Reads the five create-task forms from FormData and validates them with the same matrix the
 * forms enforce while editing (lib/x3d/form-logic). Pure, so the server actions' validation is
 * unit-tested; ownership of uploads and source tasks is checked later, on the server.
 * Problems are keyed by wire field name and worded as the error catalogue words them.
 */
import { z } from "zod";
import { extensionOf, httpUrl } from "@/lib/x3d/schemas/common";
import { userMessage, type ErrorCode } from "@/lib/x3d/errors";
import {
  depthOptionProblems,
  imageOptionProblems,
  viewsProblem,
  type DepthOptions,
  type ImageOptions,
  type Problems,
  type SplitOptions,
  type ViewSlots,
} from "@/lib/x3d/form-logic";
import {
  DEPTH_FORMATS,
  DEPTH_MODEL_TYPES,
  MESH_FORMATS,
  MESH_TYPES,
  MODELS,
  RESOLUTIONS,
  SEG_LEVELS,
  SEGMENTATION_FORMATS,
  SPLIT_JOINTS,
  SPLIT_LEVELS,
  SPLIT_MODELS,
  SPLIT_PARTS,
  VIEWS,
  type SplitPart,
} from "@/lib/x3d/options";

export type Parsed<T> = { ok: true; value: T } | { ok: false; fields: Record<string, string> };

/** Where a task's mesh comes from: a staged upload, a URL, or an earlier studio task's result. */
export type MeshSource = { source: "upload"; upload: string } | { source: "url"; url: string } | { source: "task"; task: string };
/** Where a depth task's image comes from: an upload, a URL, or an earlier task's cover. */
export type ImageSource = { source: "upload"; upload: string } | { source: "url"; url: string } | { source: "task"; task: string };

export interface ImageTaskValues {
  options: ImageOptions;
  input: { mode: "single"; image: string } | { mode: "multi"; views: ViewSlots<string> };
}
export interface TextureTaskValues {
  options: ImageOptions;
  image: string;
  mesh: MeshSource;
}
export interface SplitTaskValues {
  options: SplitOptions;
  mesh: MeshSource;
}
export interface DepthTaskValues {
  options: DepthOptions;
  image: ImageSource;
}
export interface SegmentationTaskValues {
  options: { seg_level: (typeof SEG_LEVELS)[number]; format: keyof typeof SEGMENTATION_FORMATS };
  mesh: MeshSource;
}

// ---------------------------------------------------------------- field readers

const say = (code: ErrorCode) => ({ error: userMessage(code) });
const keys = (o: object) => Object.keys(o) as [string, ...string[]];
const int = (code: ErrorCode) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, say(code).error)
    .transform(Number);
const decimal = (code: ErrorCode) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$|^-?\.\d+$/, say(code).error)
    .transform(Number);
const flag = (code: ErrorCode) => z.enum(["0", "1"], say(code)).transform((v) => (v === "1" ? 1 : 0) as 0 | 1);
const choice = <T extends readonly [string, ...string[]]>(values: T, code: ErrorCode) => z.enum(values, say(code));
const formatOf = <F extends number>(formats: Record<F, string>, code: ErrorCode) =>
  z.enum(keys(formats), say(code)).transform((v) => Number(v) as F);
/** Ids minted by lib/storage newId (base64url) or the service (opaque, but printable). */
export const IdSchema = z
  .string()
  .trim()
  .regex(/^[\w.:-]{1,200}$/, "That id is not valid.");

/** Text values of the named fields; absent and empty fields are left out, so defaults apply. */
function read(form: FormData, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = form.get(name);
    if (typeof value === "string" && value.trim() !== "") out[name] = value;
  }
  return out;
}

function issuesToFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[String(issue.path[0] ?? "form")] ??= issue.message;
  return fields;
}

function merge(...parts: Problems[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const part of parts) for (const [k, v] of Object.entries(part)) if (v) fields[k] ??= v;
  return fields;
}

/** Runs a schema over the form's fields: the value, or problems by field. */
function parseFields<S extends z.ZodType>(schema: S, form: FormData, names: readonly string[]): Parsed<z.output<S>> {
  const parsed = schema.safeParse(read(form, names));
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, fields: issuesToFields(parsed.error) };
}

// ---------------------------------------------------------------- inputs

function uploadId(form: FormData, name: string): string | undefined {
  const parsed = IdSchema.safeParse(form.get(name) ?? "");
  return parsed.success ? parsed.data : undefined;
}

interface UrlRules {
  extensions: readonly string[];
  badUrl: ErrorCode;
  badType: ErrorCode;
}

/** A problem with a URL input: not http(s), or naming a file type that is not allowed. */
export function urlProblem(url: string, rules: UrlRules): string | undefined {
  if (!httpUrl().safeParse(url).success) return userMessage(rules.badUrl);
  const ext = extensionOf(new URL(url).pathname);
  return ext && !rules.extensions.includes(ext) ? userMessage(rules.badType) : undefined;
}

interface MeshRules extends UrlRules {
  missing: ErrorCode;
}
const MESH_RULES: MeshRules = { extensions: MESH_TYPES, badUrl: 10030007, badType: 10030005, missing: 10030003 };
const GLB_RULES: MeshRules = { extensions: ["glb"], badUrl: 10031012, badType: 10031016, missing: 10031011 };

/** The mesh input: `mesh_source` picks `mesh` (upload id), `mesh_url` or `mesh_task` (studio task id). */
export function parseMeshSource(form: FormData, rules: MeshRules = MESH_RULES): Parsed<MeshSource> {
  const source = form.get("mesh_source");
  if (source === "url") {
    const url = String(form.get("mesh_url") ?? "").trim();
    const problem = url === "" ? userMessage(rules.missing) : urlProblem(url, rules);
    return problem ? { ok: false, fields: { mesh_url: problem } } : { ok: true, value: { source: "url", url } };
  }
  const field = source === "task" ? "mesh_task" : "mesh";
  const id = uploadId(form, field);
  if (!id) return { ok: false, fields: { mesh: userMessage(rules.missing) } };
  return { ok: true, value: source === "task" ? { source: "task", task: id } : { source: "upload", upload: id } };
}

// ---------------------------------------------------------------- image to 3D and texture

export const imageOptionsSchema = z.object({
  request_type: z
    .enum(["1", "2", "3"], say(10031004))
    .transform((v) => Number(v) as 1 | 2 | 3)
    .default(3),
  model: choice(MODELS, 10031006),
  resolution: choice(RESOLUTIONS, 10031003),
  pbr: flag(10031018).default(1),
  shading: decimal(10031020).default(0.5),
  face: int(10031002).optional(),
  format: formatOf(MESH_FORMATS, 10030002).default(2),
  rmbg: flag(10031019).default(1),
});
const IMAGE_OPTION_FIELDS = keys(imageOptionsSchema.shape);

/** The options part of the image-to-3D and texture forms; `face` is required unless texturing. */
function parseImageOptions(form: FormData, requestType?: 2): Parsed<ImageOptions> {
  const fields = parseFields(imageOptionsSchema, form, IMAGE_OPTION_FIELDS);
  if (!fields.ok) return fields;
  const raw = { ...fields.value, request_type: requestType ?? fields.value.request_type };
  if (raw.face === undefined && raw.request_type !== 2) return { ok: false, fields: { face: userMessage(10031002) } };
  const options: ImageOptions = { ...raw, face: raw.face ?? 0 };
  const problems = merge(imageOptionProblems(options));
  return Object.keys(problems).length ? { ok: false, fields: problems } : { ok: true, value: options };
}

/** The image-to-3D form: one image (`images`) or views (`view_front`...), and the options (request_type 1 or 3). */
export function parseImageTaskForm(form: FormData): Parsed<ImageTaskValues> {
  const options = parseImageOptions(form);
  const problems: Problems = options.ok ? {} : { ...options.fields };
  if (options.ok && options.value.request_type === 2) problems.request_type = userMessage(10031004);
  let input: ImageTaskValues["input"] | undefined;
  if (form.get("mode") === "multi") {
    const views: ViewSlots<string> = {};
    for (const view of VIEWS) {
      const id = uploadId(form, `view_${view}`);
      if (id) views[view] = id;
    }
    const missing = viewsProblem(views);
    if (missing) problems.multi_images_bit = missing;
    else input = { mode: "multi", views };
  } else {
    const image = uploadId(form, "images");
    if (!image) problems.images = userMessage(10031008);
    else input = { mode: "single", image };
  }
  if (!options.ok || !input || Object.keys(problems).length) return { ok: false, fields: merge(problems) };
  return { ok: true, value: { options: options.value, input } };
}

/** The texture form: a GLB mesh (upload, URL or earlier result), one image, and a model that can texture. */
export function parseTextureTaskForm(form: FormData): Parsed<TextureTaskValues> {
  const options = parseImageOptions(form, 2);
  const mesh = parseMeshSource(form, GLB_RULES);
  const image = uploadId(form, "images");
  const problems = merge(options.ok ? {} : options.fields, mesh.ok ? {} : mesh.fields, image ? {} : { images: userMessage(10031008) });
  if (!options.ok || !mesh.ok || !image) return { ok: false, fields: problems };
  return { ok: true, value: { options: options.value, image, mesh: mesh.value } };
}

// ---------------------------------------------------------------- split, depth, segmentation

export const splitOptionsSchema = z.object({
  model: choice(SPLIT_MODELS, 10032001).default("character"),
  part: choice(Object.keys(SPLIT_PARTS) as [SplitPart, ...SplitPart[]], 10032002).default("a"),
  joint: choice(SPLIT_JOINTS, 10032003).default("ball"),
  merge: choice(["yes", "no"] as const, 10032004).default("yes"),
  level: choice(SPLIT_LEVELS, 10032005).default("medium"),
  format: formatOf(MESH_FORMATS, 10030002).default(2),
});

/** The split form: a mesh and the fields of its model (fields that do not apply fall back to defaults and are not sent). */
export function parseSplitTaskForm(form: FormData): Parsed<SplitTaskValues> {
  const options = parseFields(splitOptionsSchema, form, keys(splitOptionsSchema.shape));
  const mesh = parseMeshSource(form);
  if (!options.ok || !mesh.ok) return { ok: false, fields: merge(options.ok ? {} : options.fields, mesh.ok ? {} : mesh.fields) };
  return { ok: true, value: { options: options.value, mesh: mesh.value } };
}

export const depthOptionsSchema = z.object({
  model_type: choice(DEPTH_MODEL_TYPES, 10033006).default("pro"),
  height_relief: decimal(10033007).default(1.3),
  rmbg: flag(10033008).default(1),
  degree_rmbg: decimal(10033009).default(0.02),
  shape_base: flag(10033010).default(0),
  thickness_base: decimal(10033011).default(1),
  width: int(10033012).default(40),
  sculpmode: flag(10033013).default(0),
  format: formatOf(DEPTH_FORMATS, 10033015),
});

/** The depth form: an image (upload or URL) and the fields of its rmbg mode, range- and step-checked. */
export function parseDepthTaskForm(form: FormData): Parsed<DepthTaskValues> {
  const rmbg = form.get("rmbg") === "0" ? 0 : 1;
  // Fields of the other rmbg mode are neither checked nor sent: the form hides them.
  const names = ["model_type", "height_relief", "rmbg", "width", "sculpmode", "format"];
  names.push(...(rmbg === 1 ? ["degree_rmbg"] : ["shape_base", "thickness_base"]));
  const fields = parseFields(depthOptionsSchema, form, names);
  const problems: Problems = fields.ok ? depthOptionProblems(fields.value) : { ...fields.fields };
  let image: ImageSource | undefined;
  if (form.get("image_source") === "url") {
    const url = String(form.get("image_url") ?? "").trim();
    const problem =
      url === ""
        ? userMessage(10033001)
        : urlProblem(url, { extensions: ["png", "jpeg", "jpg", "webp"], badUrl: 10033005, badType: 10033003 });
    if (problem) problems.image_url = problem;
    else image = { source: "url", url };
  } else {
    const task = form.get("image_source") === "task";
    const id = uploadId(form, task ? "image_task" : "image");
    if (!id) problems.image = userMessage(10033001);
    else image = task ? { source: "task", task: id } : { source: "upload", upload: id };
  }
  if (!fields.ok || !image || Object.values(problems).some(Boolean)) return { ok: false, fields: merge(problems) };
  return { ok: true, value: { options: fields.value, image } };
}

export const segmentationOptionsSchema = z.object({
  seg_level: choice(SEG_LEVELS, 10034001).default("medium"),
  format: formatOf(SEGMENTATION_FORMATS, 10030002).default(2),
});

/** The segmentation form: a mesh, a level and a format (1..5). */
export function parseSegmentationTaskForm(form: FormData): Parsed<SegmentationTaskValues> {
  const options = parseFields(segmentationOptionsSchema, form, keys(segmentationOptionsSchema.shape));
  const mesh = parseMeshSource(form);
  if (!options.ok || !mesh.ok) return { ok: false, fields: merge(options.ok ? {} : options.fields, mesh.ok ? {} : mesh.fields) };
  return { ok: true, value: { options: options.value, mesh: mesh.value } };
}

/** The look-up form: any service task id. */
export function parseLookupForm(form: FormData): Parsed<{ taskId: string }> {
  const raw = String(form.get("task_id") ?? "").trim();
  if (raw === "") return { ok: false, fields: { task_id: userMessage(10030009) } };
  const id = IdSchema.safeParse(raw);
  return id.success ? { ok: true, value: { taskId: id.data } } : { ok: false, fields: { task_id: userMessage(10030010) } };
}
