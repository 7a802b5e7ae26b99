import { formatBytes } from "@/lib/files/format-bytes";
import {
  FACE_RANGE,
  LIMITS,
  MODEL_INFO,
  MODELS,
  RECOMMENDED_FACES,
  SUBMIT_DEFAULTS,
  VIEWS,
  type Model,
  type RequestType,
  type Resolution,
  type View,
} from "@/lib/x3d/options";
import type { MeshFormat } from "../generate/job";
import { sniffImage, sniffMesh } from "@/lib/files/sniff";
import { EngineError } from "../engine-error";
import {
  callbackUrl,
  choice,
  decimal,
  files,
  integer,
  intChoice,
  isHttpUrl,
  text,
  urlExtension,
  type FormInput,
  type UploadedFile,
} from "./form";

export interface SubmitTaskOptions {
  requestType: RequestType;
  model: Model;
  resolution: Resolution;
  face: number;
  pbr: boolean;
  rmbg: boolean;
  shading: number;
  format: MeshFormat;
  callbackUrl?: string;
  /** The images with the view each shows, front first. */
  images: { view: View; file: UploadedFile }[];
  mesh?: { file: UploadedFile } | { url: string };
}

/** The upload limit per multipart field of submit-task. */
export function submitFileLimit(field: string): number {
  return field === "mesh" ? LIMITS.meshBytes : LIMITS.imageBytes;
}

/** Every rule of open-api.md 4.2 and its error codes (section 7), plus the addendum's tolerances. */
export function validateSubmitTask(form: FormInput): SubmitTaskOptions {
  const requestType = intChoice<RequestType>(text(form, "request_type"), SUBMIT_DEFAULTS.requestType, [1, 2, 3], 10031004, "request_type");
  const model = choice(text(form, "model"), SUBMIT_DEFAULTS.model, MODELS, 10031006, "model");
  const info = MODEL_INFO[model];

  const images = validateImages(form);

  const resolution = choice(text(form, "resolution"), info.defaultResolution, info.resolutions, 10031003, `resolution for ${model}`);

  const faceRaw = text(form, "face");
  let face = RECOMMENDED_FACES[resolution];
  if (faceRaw !== undefined) {
    const detail = `face must be a whole number from ${FACE_RANGE.min} to ${FACE_RANGE.max}, got "${faceRaw}"`;
    face = integer(faceRaw, 10031002, detail);
    if (face < FACE_RANGE.min || face > FACE_RANGE.max) throw new EngineError(10031002, detail);
  }

  const format = intChoice<MeshFormat>(text(form, "format"), SUBMIT_DEFAULTS.format, [1, 2, 3, 4, 5, 6], 10030002, "format");
  const pbr = intChoice(text(form, "pbr"), SUBMIT_DEFAULTS.pbr, [0, 1], 10031018, "pbr") === 1;
  const rmbg = intChoice(text(form, "rmbg"), SUBMIT_DEFAULTS.rmbg, [0, 1], 10031019, "rmbg") === 1;
  const shading = decimal(text(form, "shading"), SUBMIT_DEFAULTS.shading, { min: 0, max: 1, step: 0.1 }, 10031020, "shading");

  const mesh = requestType === 2 ? validateMesh(form, model) : undefined;

  return {
    requestType,
    model,
    resolution,
    face,
    // pbr and shading exist only for the v2.0, v2.1 and v3.0 families; others ignore them.
    pbr: info.pbrAndShading && requestType !== 1 && pbr,
    rmbg,
    shading: info.pbrAndShading ? shading : 0,
    format,
    callbackUrl: callbackUrl(form),
    images,
    mesh,
  };
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
  if (single.length) return [{ view: "front", file: single[0]! }];

  const bit = text(form, "multi_images_bit");
  if (bit === undefined) {
    // Two of three public clients omit the bit string: the files are front, back, left, right in order.
    return multi.map((file, i) => ({ view: VIEWS[i]!, file }));
  }
  if (bit.length !== 4) throw new EngineError(10031013, `multi_images_bit must be 4 characters, got "${bit}"`);
  if (!/^[01]{4}$/.test(bit)) throw new EngineError(10031014, `multi_images_bit may contain only 0 and 1, got "${bit}"`);
  const views = VIEWS.filter((_, i) => bit[i] === "1");
  if (views.length !== multi.length) {
    throw new EngineError(10031015, `multi_images_bit "${bit}" marks ${views.length} views but ${multi.length} files were sent`);
  }
  if (bit[0] !== "1") throw new EngineError(10031021, `multi_images_bit "${bit}" has no front view`);
  return views.map((view, i) => ({ view, file: multi[i]! }));
}

function validateMesh(form: FormInput, model: Model): { file: UploadedFile } | { url: string } {
  if (!MODEL_INFO[model].texturesExistingMesh) {
    throw new EngineError(10031017, `${model} cannot texture an existing mesh (request_type 2)`);
  }
  const meshFiles = files(form, "mesh");
  const url = text(form, "mesh_url");
  if (meshFiles.length === 0 && url === undefined) throw new EngineError(10031011);
  if (meshFiles.length > 0) {
    const file = meshFiles[0]!;
    if (file.size === 0) throw new EngineError(10031010, `mesh "${file.filename}" is empty`);
    if (file.size > LIMITS.meshBytes)
      throw new EngineError(10031001, `mesh is ${formatBytes(file.size)}, at most ${formatBytes(LIMITS.meshBytes)}`);
    if (sniffMesh(file.head, file.size) !== "glb") throw new EngineError(10031016, `mesh "${file.filename}" is not a GLB file`);
    return { file };
  }
  if (!url!.toLowerCase().startsWith("http") || !isHttpUrl(url!)) {
    throw new EngineError(10031012, `mesh_url must be an http or https URL, got "${url}"`);
  }
  const ext = urlExtension(url!);
  if (ext && ext !== "glb") throw new EngineError(10031016, `mesh_url must point to a .glb file, got .${ext}`);
  return { url: url! };
}
