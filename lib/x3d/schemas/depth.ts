/**
 * Schemas of depth create/query (open-api.md 4.7, 4.8). `format` is required (1 exr, 2 png,
 * 3 stl, 4 glb, 5 3mf, 6 bmp); model_type and rmbg are filled with their defaults; options of
 * the other rmbg mode are dropped. Safe to import from client components.
 */
import { z } from "zod";
import { LIMITS, type DEPTH_MODEL_TYPES, type DepthFormat } from "../options";
import { optionCodes, optionsShape, refineOptions, wireOptions, type OptionsWire } from "../endpoints/client-schema";
import { DEPTH_SPEC, type DepthSpec } from "../endpoints/depth";
import { inTableOrder } from "../endpoints/field";
import {
  addCodedIssue,
  CallbackUrlSchema,
  CreateResultResponseSchema,
  fileSchema,
  TaskResultResponseSchema,
  urlSchema,
  type FieldCodes,
} from "./common";
import { IMAGE_EXTENSIONS } from "./image-to-3d";

/** The image to turn into a depth map: png, jpeg or webp, at most 20 MB. */
const DepthImageFileSchema = fileSchema({
  extensions: IMAGE_EXTENSIONS,
  maxBytes: LIMITS.imageBytes,
  emptyCode: 10033016,
  tooBigCode: 10033004,
});

const DepthInputsSchema = z.object({
  image: DepthImageFileSchema.optional(),
  image_url: urlSchema(IMAGE_EXTENSIONS, 10033003).optional(),
  callback_url: CallbackUrlSchema.optional(),
});
type DepthWire = z.output<typeof DepthInputsSchema> &
  OptionsWire<DepthSpec["fields"]> & { model_type: (typeof DEPTH_MODEL_TYPES)[number]; rmbg: 0 | 1; format: DepthFormat };

/** The options from lib/x3d/endpoints/depth (format required, fields of the other rmbg mode dropped); image and callback here. */
export const DepthCreateRequestSchema = DepthInputsSchema.extend(optionsShape(DEPTH_SPEC))
  .superRefine((o, ctx) => {
    if (!o.image && o.image_url === undefined) addCodedIssue(ctx, 10033001, "image", "image or image_url is required");
    if (o.image && o.image_url !== undefined) addCodedIssue(ctx, 10033002, "image", "give image or image_url, not both");
    refineOptions(DEPTH_SPEC, o, ctx);
  })
  .transform((o) => {
    const out: DepthWire = { ...o, ...(wireOptions(DEPTH_SPEC, o) as DepthWire) };
    return inTableOrder(DEPTH_SPEC, out);
  });
export type DepthCreateInput = z.input<typeof DepthCreateRequestSchema>;

export const DEPTH_FIELD_CODES: FieldCodes = { ...optionCodes(DEPTH_SPEC), image: 10033003, image_url: 10033005, callback_url: 10030001 };

export const DepthCreateResponseSchema = CreateResultResponseSchema;
export const DepthQueryResponseSchema = TaskResultResponseSchema;
