/**
 * The one error catalogue of the x3d Open API: code -> wire message, HTTP status, the
 * sentence a user reads, and the form field it concerns. Codes from open-api.md section 7
 * keep their exact `msg`; the 1003[0234]xxxx families are ours (the spec gives no codes for
 * invalid split, depth or segmentation input) and are listed in the README.
 * Safe to import from client components.
 */

import { DEPTH_RANGES, FACE_RANGE, MODEL_INFO, MODELS, SHADING_RANGE } from "./options";

// Sentences that name a range or the models that can do something are written from the
// matrix (lib/x3d/options), so they follow it.
const grouped = (n: number) => n.toLocaleString("en-US");
const places = (step: number) => String(step).split(".")[1]?.length ?? 0;
const range = (r: { min: number; max: number }, p: number) => `from ${r.min.toFixed(p)} to ${r.max.toFixed(p)}`;
const orList = (items: readonly string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`);
const TEXTURE_MODELS = orList(MODELS.filter((m) => MODEL_INFO[m].texturesExistingMesh).map((m) => MODEL_INFO[m].label));
const { height_relief, degree_rmbg, thickness_base, width } = DEPTH_RANGES;

interface CatalogueEntry {
  msg: string;
  /** HTTP status the embedded service answers with (the live service uses 200 for business errors). */
  http: number;
  /** A sentence for artists. */
  user: string;
  /** The request field the error is about, when there is one. */
  field?: string;
}

export const ERRORS = {
  200: { msg: "success", http: 200, user: "Done." },
  401: {
    msg: "Unauthorized",
    http: 401,
    user: "The service refused our credentials. Ask the operator to check X3D_CLIENT_ID and X3D_CLIENT_SECRET.",
  },
  40010000: { msg: "client credentials are invalid", http: 200, user: "The service refused our client credentials." },
  10000000: { msg: "system error", http: 500, user: "The service had an internal error. Try again in a moment." },
  30010000: { msg: "balance is not enough", http: 200, user: "Your balance is too low for this task." },
  10031001: {
    msg: "Upload file size exceeds limit",
    http: 200,
    user: "A file is too large: images may be at most 20 MB, meshes 200 MB.",
    field: "images",
  },
  10031002: {
    msg: "Face not valid",
    http: 200,
    user: `The face count must be a whole number from ${grouped(FACE_RANGE.min)} to ${grouped(FACE_RANGE.max)}.`,
    field: "face",
  },
  10031003: { msg: "Resolution not valid", http: 200, user: "That resolution is not available for the chosen model.", field: "resolution" },
  10031004: {
    msg: "request type not support",
    http: 200,
    user: "Choose geometry, texture, or geometry and texture.",
    field: "request_type",
  },
  10031005: { msg: "images only allow png jpeg jpg webp", http: 200, user: "Images must be PNG, JPEG or WebP.", field: "images" },
  10031006: { msg: "model not valid", http: 200, user: "That model does not exist.", field: "model" },
  10031007: {
    msg: "both images and multi images provided",
    http: 200,
    user: "Give either one image or several views, not both.",
    field: "images",
  },
  10031008: { msg: "images or multi images required", http: 200, user: "Add an image first.", field: "images" },
  10031009: {
    msg: "multi images count exceeds limit",
    http: 200,
    user: "At most four views: front, back, left and right.",
    field: "multi_images",
  },
  10031010: { msg: "empty file not allowed", http: 200, user: "A file was empty. Upload it again.", field: "images" },
  10031011: {
    msg: "mesh url or mesh required when request type 2",
    http: 200,
    user: "Texturing needs a model: upload a GLB, give its URL or pick an earlier result.",
    field: "mesh",
  },
  10031012: {
    msg: "mesh_url_must_start_with_http",
    http: 200,
    user: "The model URL must start with http:// or https://.",
    field: "mesh_url",
  },
  10031013: {
    msg: "multi images bit length error",
    http: 200,
    user: "The view selection must have exactly four slots.",
    field: "multi_images_bit",
  },
  10031014: {
    msg: "multi images bit invalid char error",
    http: 200,
    user: "The view selection may only contain 0 and 1.",
    field: "multi_images_bit",
  },
  10031015: {
    msg: "multi_images_bit_count_mismatch_error",
    http: 200,
    user: "The number of views does not match the filled slots.",
    field: "multi_images_bit",
  },
  10031016: { msg: "mesh format not supported", http: 200, user: "Texturing takes GLB models only.", field: "mesh" },
  10031017: {
    msg: "model does not support texture",
    http: 200,
    user: `This model cannot texture an existing mesh: choose ${TEXTURE_MODELS}.`,
    field: "model",
  },
  10031018: { msg: "pbr not valid", http: 200, user: "PBR must be on or off.", field: "pbr" },
  10031019: { msg: "rmbg not valid", http: 200, user: "Background removal must be on or off.", field: "rmbg" },
  10031020: {
    msg: "shading not valid",
    http: 200,
    user: `De-shading must be between ${SHADING_RANGE.min.toFixed(1)} and ${SHADING_RANGE.max.toFixed(1)} in steps of ${SHADING_RANGE.step}.`,
    field: "shading",
  },
  10031021: { msg: "front view required", http: 200, user: "The front view is required.", field: "multi_images_bit" },
  50010001: {
    msg: "generate failed",
    http: 200,
    user: "Generation failed (the input could not be read, or it took too long). Your credits were refunded.",
  },
  5001001: {
    msg: "generate failed",
    http: 200,
    user: "The task failed (the input could not be read, or it took too long). Your credits were refunded.",
  },
  // Shared by every endpoint.
  10030001: {
    msg: "callback_url not valid",
    http: 200,
    user: "The callback URL must be an http:// or https:// address.",
    field: "callback_url",
  },
  10030002: { msg: "format not valid", http: 200, user: "Choose one of the listed output formats.", field: "format" },
  10030003: { msg: "mesh or mesh_url required", http: 200, user: "Add a model: upload a file or give its URL.", field: "mesh" },
  10030004: { msg: "both mesh and mesh_url provided", http: 200, user: "Give either a model file or a URL, not both.", field: "mesh" },
  10030005: { msg: "mesh format not supported", http: 200, user: "Models must be GLB, STL or OBJ.", field: "mesh" },
  10030006: { msg: "mesh file size exceeds limit", http: 200, user: "Models may be at most 200 MB.", field: "mesh" },
  10030007: {
    msg: "mesh_url must start with http",
    http: 200,
    user: "The model URL must start with http:// or https://.",
    field: "mesh_url",
  },
  10030008: { msg: "empty file not allowed", http: 200, user: "A file was empty. Upload it again.", field: "mesh" },
  10030009: { msg: "task_id required", http: 200, user: "No task id was given.", field: "task_id" },
  10030010: { msg: "task not found", http: 200, user: "No such task.", field: "task_id" },
  10030011: { msg: "request must be multipart/form-data", http: 200, user: "The request was not sent as a form." },
  10030012: { msg: "too many files", http: 200, user: "Send one file only.", field: "mesh" },
  10030013: { msg: "request body timed out", http: 408, user: "The upload stalled. Check the connection and try again." },
  10030014: { msg: "method not allowed", http: 405, user: "The request used an HTTP method this endpoint does not take." },
  // split/create-task
  10032001: { msg: "split model not valid", http: 200, user: "Split as a character or as a general model.", field: "model" },
  10032002: { msg: "part not valid", http: 200, user: "Choose a part layout from a to f.", field: "part" },
  10032003: { msg: "joint not valid", http: 200, user: "Joints are none, ball, dovetail or pin.", field: "joint" },
  10032004: { msg: "merge not valid", http: 200, user: "Merge must be yes or no.", field: "merge" },
  10032005: { msg: "level not valid", http: 200, user: "The level is low, medium or high.", field: "level" },
  // depth/create-task
  10033001: { msg: "image or image_url required", http: 200, user: "Add an image: upload a file or give its URL.", field: "image" },
  10033002: { msg: "both image and image_url provided", http: 200, user: "Give either an image file or a URL, not both.", field: "image" },
  10033003: { msg: "image only allow png jpeg jpg webp", http: 200, user: "Images must be PNG, JPEG or WebP.", field: "image" },
  10033004: { msg: "image file size exceeds limit", http: 200, user: "Images may be at most 20 MB.", field: "image" },
  10033005: {
    msg: "image_url must start with http",
    http: 200,
    user: "The image URL must start with http:// or https://.",
    field: "image_url",
  },
  10033006: { msg: "model_type not valid", http: 200, user: "Quality is base (1K) or pro (2K).", field: "model_type" },
  10033007: {
    msg: "height_relief not valid",
    http: 200,
    user: `Relief height must be ${range(height_relief, 1)}.`,
    field: "height_relief",
  },
  10033008: { msg: "rmbg not valid", http: 200, user: "Background removal must be on or off.", field: "rmbg" },
  10033009: {
    msg: "degree_rmbg not valid",
    http: 200,
    user: `Background removal strength must be ${range(degree_rmbg, places(degree_rmbg.step))} in steps of ${degree_rmbg.step}.`,
    field: "degree_rmbg",
  },
  10033010: { msg: "shape_base not valid", http: 200, user: "The base is square or circle.", field: "shape_base" },
  10033011: {
    msg: "thickness_base not valid",
    http: 200,
    user: `Base thickness must be ${range(thickness_base, places(thickness_base.step))} mm in steps of ${thickness_base.step}.`,
    field: "thickness_base",
  },
  10033012: { msg: "width not valid", http: 200, user: `Width must be a whole number of millimetres ${range(width, 0)}.`, field: "width" },
  10033013: { msg: "sculpmode not valid", http: 200, user: "Choose emboss or engrave.", field: "sculpmode" },
  10033014: { msg: "response_format not valid", http: 200, user: "The response format must be url.", field: "response_format" },
  10033015: { msg: "format required", http: 200, user: "Choose an output format.", field: "format" },
  10033016: { msg: "empty file not allowed", http: 200, user: "The image was empty. Upload it again.", field: "image" },
  // segmentation/create-task
  10034001: { msg: "seg_level not valid", http: 200, user: "The segmentation level is low, medium or high.", field: "seg_level" },
} as const satisfies Record<number, CatalogueEntry>;

export type ErrorCode = keyof typeof ERRORS;

export function isKnownCode(code: number): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}

/** The sentence a user should read for a service error code. */
export function userMessage(code: number): string {
  return isKnownCode(code) ? ERRORS[code].user : `The service answered with error ${code}.`;
}

/** The form field a service error concerns, if any. */
export function errorField(code: number): string | undefined {
  return isKnownCode(code) ? (ERRORS[code] as CatalogueEntry).field : undefined;
}
