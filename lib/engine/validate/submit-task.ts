import { formatBytes } from "@/lib/files/format-bytes";
import { LIMITS, VIEWS, type View } from "@/lib/x3d/options";
import type { ValuesOf } from "@/lib/x3d/endpoints/field";
import { SUBMIT_TASK_SPEC, type SubmitTaskSpec } from "@/lib/x3d/endpoints/submit-task";
import type { ImageTo3DOptions } from "../generate/job";
import { sniffImage, sniffMesh } from "@/lib/files/sniff";
import { EngineError } from "../engine-error";
import { callbackUrl, files, isHttpUrl, text, urlExtension, type FormInput, type UploadedFile } from "./form";
import { readOptions } from "./spec-form";

export interface SubmitTaskOptions {
  /** What the generator's job receives. */
  options: ImageTo3DOptions;
  /** The values as read, by wire name (for the cost). */
  values: ValuesOf<SubmitTaskSpec["fields"]>;
  callbackUrl?: string;
  /** The images with the view each shows, front first. */
  images: { view: View; file: UploadedFile }[];
  mesh?: { file: UploadedFile } | { url: string };
}

/** The upload limit per multipart field of submit-task. */
export function submitFileLimit(field: string): number {
  return field === "mesh" ? LIMITS.meshBytes : LIMITS.imageBytes;
}

/** Every rule of open-api.md 4.2 (lib/x3d/endpoints/submit-task) and its error codes, plus the addendum's tolerances. */
export function validateSubmitTask(form: FormInput): SubmitTaskOptions {
  let images: { view: View; file: UploadedFile }[] = [];
  let mesh: SubmitTaskOptions["mesh"];
  let callback: string | undefined;
  const { job, values } = readOptions(SUBMIT_TASK_SPEC, form, (step, values) => {
    if (step.input === "images") images = validateImages(form);
    else if (step.input === "mesh" && values.request_type === 2) mesh = validateMesh(form);
    else if (step.input === "callback_url") callback = callbackUrl(form);
  });
  return { options: job, values, callbackUrl: callback, images, mesh };
}

function validateImages(form: FormInput): { view: View; file: UploadedFile }[] {
  const single = files(form, "images");
  const multi = files(form, "multi_images");
  if (single.length > 0 && multi.length > 0) throw new EngineError(10031007);
  if (single.length === 0 && multi.length === 0) throw new EngineError(10031008);
  if (single.length > 1) throw new EngineError(10031009, `images takes one file, got ${single.length}; use multi_images for views`);
  if (multi.length > LIMITS.multiImages)
    throw new EngineError(10031009, `multi_images takes at most ${LIMITS.multiImages} files, got ${multi.length}`);

  const all = single.length ? single : multi;
  for (const f of all) {
    if (f.size === 0) throw new EngineError(10031010, `${f.field} "${f.filename}" is empty`);
    if (f.size > LIMITS.imageBytes)
      throw new EngineError(10031001, `${f.field} "${f.filename}" is ${formatBytes(f.size)}, at most ${formatBytes(LIMITS.imageBytes)}`);
    if (!sniffImage(f.head)) throw new EngineError(10031005, `${f.field} "${f.filename}" is not a PNG, JPEG or WebP image`);
  }
  const [first] = single;
  if (first) return [{ view: "front", file: first }];

  const bit = text(form, "multi_images_bit");
  if (bit === undefined) {
    // Two of three public clients omit the bit string: the files are front, back, left, right in order.
    // At most four files (checked above), so every file has its view.
    return multi.flatMap((file, i) => {
      const view = VIEWS[i];
      return view ? [{ view, file }] : [];
    });
  }
  if (bit.length !== 4) throw new EngineError(10031013, `multi_images_bit must be 4 characters, got "${bit}"`);
  if (!/^[01]{4}$/.test(bit)) throw new EngineError(10031014, `multi_images_bit may contain only 0 and 1, got "${bit}"`);
  const views = VIEWS.filter((_, i) => bit[i] === "1");
  if (views.length !== multi.length) {
    throw new EngineError(10031015, `multi_images_bit "${bit}" marks ${views.length} views but ${multi.length} files were sent`);
  }
  if (bit[0] !== "1") throw new EngineError(10031021, `multi_images_bit "${bit}" has no front view`);
  return views.flatMap((view, i) => {
    const file = multi[i];
    return file ? [{ view, file }] : [];
  });
}

function validateMesh(form: FormInput): { file: UploadedFile } | { url: string } {
  const meshFiles = files(form, "mesh");
  const url = text(form, "mesh_url");
  const [file] = meshFiles;
  if (file) {
    if (file.size === 0) throw new EngineError(10031010, `mesh "${file.filename}" is empty`);
    if (file.size > LIMITS.meshBytes)
      throw new EngineError(10031001, `mesh is ${formatBytes(file.size)}, at most ${formatBytes(LIMITS.meshBytes)}`);
    if (sniffMesh(file.head, file.size) !== "glb") throw new EngineError(10031016, `mesh "${file.filename}" is not a GLB file`);
    return { file };
  }
  if (url === undefined) throw new EngineError(10031011);
  if (!url.toLowerCase().startsWith("http") || !isHttpUrl(url)) {
    throw new EngineError(10031012, `mesh_url must be an http or https URL, got "${url}"`);
  }
  const ext = urlExtension(url);
  if (ext && ext !== "glb") throw new EngineError(10031016, `mesh_url must point to a .glb file, got .${ext}`);
  return { url };
}
