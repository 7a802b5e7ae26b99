/**
 * Reads the five create-task forms from FormData and validates them with the same matrix the
 * forms enforce while editing (lib/x3d/forms). Pure, so the server actions' validation is
 * unit-tested; ownership of uploads and source tasks is checked later, on the server.
 * Problems are keyed by wire field name and worded as the error catalogue words them.
 */
import { z } from "zod";
import { DEPTH_SPEC } from "@/lib/x3d/endpoints/depth";
import type { EndpointSpec, Fields, FormValuesOf, ValuesOf } from "@/lib/x3d/endpoints/field";
import { SEGMENTATION_SPEC, type SegmentationSpec } from "@/lib/x3d/endpoints/segmentation";
import { SPLIT_SPEC } from "@/lib/x3d/endpoints/split";
import { SUBMIT_TASK_SPEC } from "@/lib/x3d/endpoints/submit-task";
import { userMessage, type ErrorCode } from "@/lib/x3d/errors";
import type { DepthOptions } from "@/lib/x3d/forms/depth";
import { readForm } from "@/lib/x3d/forms/endpoint-form";
import type { ImageOptions } from "@/lib/x3d/forms/image";
import { byField, type Problems } from "@/lib/x3d/forms/problems";
import type { SplitOptions } from "@/lib/x3d/forms/split";
import { viewsProblem, type ViewSlots } from "@/lib/x3d/forms/views";
import { MESH_TYPES, VIEWS } from "@/lib/x3d/options";
import { extensionOf, httpUrl } from "@/lib/x3d/schemas/common";

export type Parsed<T> = { ok: true; value: T } | { ok: false; fields: Record<string, string> };

/** Where a task's mesh comes from: a staged upload, a URL, or an earlier studio task's result. */
export type MeshSource = { source: "upload"; upload: string } | { source: "url"; url: string } | { source: "task"; task: string };
/** Where a depth task's image comes from: an upload, a URL, or an earlier task's cover. */
type ImageSource = { source: "upload"; upload: string } | { source: "url"; url: string } | { source: "task"; task: string };

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
  options: ValuesOf<SegmentationSpec["fields"]>;
  mesh: MeshSource;
}

// ---------------------------------------------------------------- field readers

/** Ids minted by lib/storage newId (base64url) or the service (opaque, but printable). */
export const IdSchema = z
  .string()
  .trim()
  .regex(/^[\w.:-]{1,200}$/, "That id is not valid.");

/** A text field's value; absent and blank fields are left out, so defaults apply. */
const textOf =
  (form: FormData) =>
  (name: string): string | undefined => {
    const value = form.get(name);
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  };

function merge(...parts: Problems[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const part of parts) for (const [k, v] of Object.entries(part)) if (v) fields[k] ??= v;
  return fields;
}

/** An endpoint's options read from the form by its spec (lib/x3d/forms/endpoint-form): the values, or problems by field. */
function parseOptions<F extends Fields>(spec: EndpointSpec<F>, text: (name: string) => string | undefined): Parsed<FormValuesOf<F>> {
  const read = readForm(spec, text);
  return read.ok ? { ok: true, value: read.values } : { ok: false, fields: merge(byField(read.problems)) };
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

/** The options part of the image-to-3D and texture forms; `face` is required unless texturing. */
function parseImageOptions(form: FormData, requestType?: 2): Parsed<ImageOptions> {
  const text = textOf(form);
  return parseOptions(SUBMIT_TASK_SPEC, (name) => (name === "request_type" && requestType ? String(requestType) : text(name)));
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

/** The split form: a mesh and the fields of its model (fields that do not apply fall back to defaults and are not sent). */
export function parseSplitTaskForm(form: FormData): Parsed<SplitTaskValues> {
  const options: Parsed<SplitOptions> = parseOptions(SPLIT_SPEC, textOf(form));
  const mesh = parseMeshSource(form);
  if (!options.ok || !mesh.ok) return { ok: false, fields: merge(options.ok ? {} : options.fields, mesh.ok ? {} : mesh.fields) };
  return { ok: true, value: { options: options.value, mesh: mesh.value } };
}

/** The depth form: an image (upload or URL) and the fields of its rmbg mode, range- and step-checked. */
export function parseDepthTaskForm(form: FormData): Parsed<DepthTaskValues> {
  // Fields of the other rmbg mode are neither checked nor sent: the form hides them.
  const fields = parseOptions(DEPTH_SPEC, textOf(form));
  const problems: Problems = fields.ok ? {} : { ...fields.fields };
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

/** The segmentation form: a mesh, a level and a format (1..5). */
export function parseSegmentationTaskForm(form: FormData): Parsed<SegmentationTaskValues> {
  const options = parseOptions(SEGMENTATION_SPEC, textOf(form));
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
