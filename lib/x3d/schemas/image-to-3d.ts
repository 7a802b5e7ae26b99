/**
 * Schemas of submit-task and query-task (open-api.md 4.2, 4.3). The request schema takes the
 * wire field names; its output drops options that do not apply (pbr and shading outside the
 * v2.0/v2.1/v3.0 families, pbr for request_type 1, mesh inputs outside request_type 2) and
 * always carries request_type and model. Safe to import from client components.
 */
import { z } from "zod";
import { IMAGE_TYPES, LIMITS, SUBMIT_DEFAULTS, type Model, type RequestType } from "../options";
import { optionCodes, optionsShape, refineOptions, wireOptions, type OptionsWire } from "../endpoints/client-schema";
import { inTableOrder } from "../endpoints/field";
import { SUBMIT_TASK_SPEC, type SubmitTaskSpec } from "../endpoints/submit-task";
import {
  addCodedIssue,
  CallbackUrlSchema,
  CreateResultResponseSchema,
  fileSchema,
  TaskResultResponseSchema,
  urlSchema,
  type FieldCodes,
} from "./common";

export const IMAGE_EXTENSIONS = [...IMAGE_TYPES, "jpg"] as const;

/** One input image: png, jpeg or webp, at most 20 MB. */
const ImageFileSchema = fileSchema({
  extensions: IMAGE_EXTENSIONS,
  maxBytes: LIMITS.imageBytes,
  emptyCode: 10031010,
  tooBigCode: 10031001,
});
/** The mesh to texture (request_type 2): GLB only. */
const GlbFileSchema = fileSchema({ extensions: ["glb"], maxBytes: LIMITS.meshBytes, emptyCode: 10031010, tooBigCode: 10031001 });

type SubmitOptionsWire = OptionsWire<SubmitTaskSpec["fields"]> & { request_type: RequestType; model: Model };

const SubmitInputsSchema = z.object({
  images: ImageFileSchema.optional(),
  /** Views in the order front, back, left, right (or as marked by multi_images_bit). */
  multi_images: z.array(ImageFileSchema).optional(),
  multi_images_bit: z.string().optional(),
  mesh_url: urlSchema(["glb"], 10031016).optional(),
  mesh: GlbFileSchema.optional(),
  callback_url: CallbackUrlSchema.optional(),
});
type SubmitInputs = z.output<typeof SubmitInputsSchema>;

/** The options from lib/x3d/endpoints/submit-task; images, mesh and callback here. */
export const SubmitTaskRequestSchema = SubmitInputsSchema.extend(optionsShape(SUBMIT_TASK_SPEC))
  .superRefine((o, ctx) => {
    refineOptions(SUBMIT_TASK_SPEC, o, ctx);
    checkImages(o, ctx);
    if ((o.request_type ?? SUBMIT_DEFAULTS.requestType) === 2) {
      if (!o.mesh && o.mesh_url === undefined) addCodedIssue(ctx, 10031011, "mesh", "request_type 2 needs mesh or mesh_url");
      if (o.mesh && o.mesh_url !== undefined) addCodedIssue(ctx, 10030004, "mesh", "give mesh or mesh_url, not both");
    }
  })
  .transform((o) => {
    const texture = (o.request_type ?? SUBMIT_DEFAULTS.requestType) === 2;
    const options = wireOptions(SUBMIT_TASK_SPEC, o) as SubmitOptionsWire;
    const out: SubmitInputs & SubmitOptionsWire = {
      ...o,
      ...options,
      mesh: texture ? o.mesh : undefined,
      mesh_url: texture ? o.mesh_url : undefined,
    };
    return inTableOrder(SUBMIT_TASK_SPEC, out);
  });

function checkImages(
  o: { images?: unknown; multi_images?: readonly unknown[] | undefined; multi_images_bit?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  const multi = o.multi_images ?? [];
  if (o.images && multi.length > 0) addCodedIssue(ctx, 10031007, "images", "give images or multi_images, not both");
  if (!o.images && multi.length === 0) addCodedIssue(ctx, 10031008, "images", "images or multi_images is required");
  if (multi.length > LIMITS.multiImages) {
    addCodedIssue(ctx, 10031009, "multi_images", `at most ${LIMITS.multiImages} views, got ${multi.length}`);
  }
  const bit = o.multi_images_bit;
  if (bit === undefined) return;
  if (bit.length !== 4) return addCodedIssue(ctx, 10031013, "multi_images_bit", `multi_images_bit must have 4 characters, got "${bit}"`);
  if (!/^[01]{4}$/.test(bit))
    return addCodedIssue(ctx, 10031014, "multi_images_bit", `multi_images_bit may hold only 0 and 1, got "${bit}"`);
  const marked = bit.split("1").length - 1;
  if (marked !== multi.length) {
    addCodedIssue(
      ctx,
      10031015,
      "multi_images_bit",
      `multi_images_bit "${bit}" marks ${marked} views but ${multi.length} multi_images were given`,
    );
  }
  if (bit[0] !== "1") addCodedIssue(ctx, 10031021, "multi_images_bit", "the front view is required");
}

/** Input of submitTask (defaults optional); SubmitTaskRequest is what goes on the wire. */
export type SubmitTaskInput = z.input<typeof SubmitTaskRequestSchema>;

/** Catalogue codes for plain field issues of submit-task. */
export const SUBMIT_FIELD_CODES: FieldCodes = {
  ...optionCodes(SUBMIT_TASK_SPEC),
  images: 10031005,
  multi_images: 10031005,
  multi_images_bit: 10031014,
  mesh_url: 10031012,
  mesh: 10031016,
  callback_url: 10030001,
};

export const SubmitTaskResponseSchema = CreateResultResponseSchema;
export const QueryTaskResponseSchema = TaskResultResponseSchema;
