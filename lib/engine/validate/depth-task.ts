import { formatBytes } from "@/lib/files/format-bytes";
import { LIMITS } from "@/lib/x3d/options";
import type { ValuesOf } from "@/lib/x3d/endpoints/field";
import { DEPTH_SPEC, type DepthSpec } from "@/lib/x3d/endpoints/depth";
import type { DepthOptions } from "../generate/job";
import { sniffImage } from "@/lib/files/sniff";
import { EngineError } from "../engine-error";
import { callbackUrl, files, isHttpUrl, text, urlExtension, type FormInput, type UploadedFile } from "./form";
import { readOptions } from "./spec-form";

export type DepthTaskOptions = {
  /** What the generator's job receives. */
  options: DepthOptions;
  /** The values as read, by wire name (for the cost). */
  values: ValuesOf<DepthSpec["fields"]>;
  image: { file: UploadedFile } | { url: string };
  callbackUrl?: string;
};

const IMAGE_EXTENSIONS = ["png", "jpg", "jpeg", "webp"];

/** open-api.md 4.7 (lib/x3d/endpoints/depth): every field, default, range and step; fields for the other rmbg mode are read but not used. */
export function validateDepthTask(form: FormInput): DepthTaskOptions {
  let image: DepthTaskOptions["image"] | undefined;
  let callback: string | undefined;
  const { job, values } = readOptions(DEPTH_SPEC, form, (step) => {
    if (step.input === "image") image = validateImageInput(form);
    else if (step.input === "callback_url") callback = callbackUrl(form);
  });
  return { options: job, values, image: image ?? validateImageInput(form), callbackUrl: callback };
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
