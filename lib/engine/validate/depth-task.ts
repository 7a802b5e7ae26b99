import { formatBytes } from "@/lib/files/format-bytes";
import { DEPTH_DEFAULTS, DEPTH_MODEL_TYPES, DEPTH_RANGES, LIMITS } from "@/lib/x3d/options";
import type { DepthFormat, DepthJob } from "../generate/job";
import { sniffImage } from "@/lib/files/sniff";
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

export type DepthTaskOptions = Omit<DepthJob, "kind" | "imagePath"> & {
  image: { file: UploadedFile } | { url: string };
  callbackUrl?: string;
};

const IMAGE_EXTENSIONS = ["png", "jpg", "jpeg", "webp"];

/** open-api.md 4.7: every field, default, range and step; fields for the other rmbg mode are ignored. */
export function validateDepthTask(form: FormInput): DepthTaskOptions {
  const image = validateImageInput(form);
  const modelType = choice(text(form, "model_type"), DEPTH_DEFAULTS.model_type, DEPTH_MODEL_TYPES, 10033006, "model_type");
  const heightRelief = decimal(
    text(form, "height_relief"),
    DEPTH_RANGES.height_relief.default,
    DEPTH_RANGES.height_relief,
    10033007,
    "height_relief",
  );
  const rmbg = intChoice(text(form, "rmbg"), DEPTH_DEFAULTS.rmbg, [0, 1], 10033008, "rmbg");
  const degreeRmbg = decimal(
    text(form, "degree_rmbg"),
    DEPTH_RANGES.degree_rmbg.default,
    DEPTH_RANGES.degree_rmbg,
    10033009,
    "degree_rmbg",
  );
  const shapeBase = intChoice<0 | 1>(text(form, "shape_base"), DEPTH_DEFAULTS.shape_base, [0, 1], 10033010, "shape_base");
  const thicknessBase = decimal(
    text(form, "thickness_base"),
    DEPTH_RANGES.thickness_base.default,
    DEPTH_RANGES.thickness_base,
    10033011,
    "thickness_base",
  );
  const widthRaw = text(form, "width");
  let width: number = DEPTH_RANGES.width.default;
  if (widthRaw !== undefined) {
    const detail = `width must be a whole number of millimetres from ${DEPTH_RANGES.width.min} to ${DEPTH_RANGES.width.max}, got "${widthRaw}"`;
    width = integer(widthRaw, 10033012, detail);
    if (width < DEPTH_RANGES.width.min || width > DEPTH_RANGES.width.max) throw new EngineError(10033012, detail);
  }
  const sculpmode = intChoice<0 | 1>(text(form, "sculpmode"), DEPTH_DEFAULTS.sculpmode, [0, 1], 10033013, "sculpmode");
  choice(text(form, "response_format"), DEPTH_DEFAULTS.response_format, ["url"] as const, 10033014, "response_format");
  const formatRaw = text(form, "format");
  // The spec marks format required and gives it no default.
  if (formatRaw === undefined) throw new EngineError(10033015, "format is required: 1 exr, 2 png, 3 stl, 4 glb, 5 3mf, 6 bmp");
  const format = intChoice<DepthFormat>(formatRaw, 1, [1, 2, 3, 4, 5, 6], 10030002, "format");
  return {
    image,
    modelType,
    heightRelief,
    rmbg: rmbg === 1,
    degreeRmbg,
    shapeBase,
    thicknessBase,
    width,
    sculpmode,
    format,
    callbackUrl: callbackUrl(form),
  };
}

function validateImageInput(form: FormInput): { file: UploadedFile } | { url: string } {
  const imageFiles = files(form, "image");
  const url = text(form, "image_url");
  if (imageFiles.length > 0 && url !== undefined) throw new EngineError(10033002);
  if (imageFiles.length > 1) throw new EngineError(10030012, `image takes one file, got ${imageFiles.length}`);
  const file = imageFiles[0];
  if (file) {
    if (file.size === 0) throw new EngineError(10033016, `image "${file.filename}" is empty`);
    if (file.size > LIMITS.imageBytes)
      throw new EngineError(10033004, `image is ${formatBytes(file.size)}, at most ${formatBytes(LIMITS.imageBytes)}`);
    if (!sniffImage(file.head)) throw new EngineError(10033003, `image "${file.filename}" is not a PNG, JPEG or WebP image`);
    return { file };
  }
  if (url === undefined) throw new EngineError(10033001);
  if (!isHttpUrl(url)) throw new EngineError(10033005, `image_url must be an http or https URL, got "${url}"`);
  const ext = urlExtension(url);
  if (ext && !IMAGE_EXTENSIONS.includes(ext))
    throw new EngineError(10033003, `image_url must point to a png, jpeg or webp image, got .${ext}`);
  return { url };
}
