/**
 * Schemas of depth create/query (open-api.md 4.7, 4.8). `format` is required (1 exr, 2 png,
 * 3 stl, 4 glb, 5 3mf, 6 bmp); model_type and rmbg are filled with their defaults; options of
 * the other rmbg mode are dropped. Safe to import from client components.
 */
import { z } from "zod";
import { DEPTH_DEFAULTS, DEPTH_FORMATS, DEPTH_MODEL_TYPES, DEPTH_RANGES, LIMITS, type DepthFormat } from "../options";
import {
  addCodedIssue,
  CallbackUrlSchema,
  CreateResultResponseSchema,
  fileSchema,
  FlagSchema,
  steppedDecimal,
  TaskResultResponseSchema,
  urlSchema,
  type FieldCodes,
} from "./common";
import { IMAGE_EXTENSIONS } from "./image-to-3d";

const DEPTH_FORMAT_KEYS = Object.keys(DEPTH_FORMATS).map(Number) as DepthFormat[];

/** The image to turn into a depth map: png, jpeg or webp, at most 20 MB. */
export const DepthImageFileSchema = fileSchema({
  extensions: IMAGE_EXTENSIONS,
  maxBytes: LIMITS.imageBytes,
  emptyCode: 10033016,
  tooBigCode: 10033004,
});

const { height_relief, degree_rmbg, thickness_base, width } = DEPTH_RANGES;

export const DepthCreateRequestSchema = z
  .object({
    image: DepthImageFileSchema.optional(),
    image_url: urlSchema(IMAGE_EXTENSIONS, 10033003).optional(),
    model_type: z.enum(DEPTH_MODEL_TYPES).default(DEPTH_DEFAULTS.model_type),
    height_relief: z.number().min(height_relief.min).max(height_relief.max).optional(),
    rmbg: FlagSchema.default(DEPTH_DEFAULTS.rmbg),
    /** Only with rmbg 1. */
    degree_rmbg: steppedDecimal(degree_rmbg).optional(),
    /** Only with rmbg 0: 0 square, 1 circle. */
    shape_base: FlagSchema.optional(),
    /** Only with rmbg 0; millimetres, sent as a string with one decimal. */
    thickness_base: steppedDecimal(thickness_base)
      .transform((v) => v.toFixed(1))
      .optional(),
    width: z.number().int().min(width.min).max(width.max).optional(),
    /** 0 emboss, 1 engrave. */
    sculpmode: FlagSchema.optional(),
    response_format: z.literal(DEPTH_DEFAULTS.response_format).optional(),
    format: z.literal(DEPTH_FORMAT_KEYS),
    callback_url: CallbackUrlSchema.optional(),
  })
  .superRefine((o, ctx) => {
    if (!o.image && o.image_url === undefined) addCodedIssue(ctx, 10033001, "image", "image or image_url is required");
    if (o.image && o.image_url !== undefined) addCodedIssue(ctx, 10033002, "image", "give image or image_url, not both");
  })
  .transform((o) => ({
    ...o,
    degree_rmbg: o.rmbg === 1 ? o.degree_rmbg : undefined,
    shape_base: o.rmbg === 0 ? o.shape_base : undefined,
    thickness_base: o.rmbg === 0 ? o.thickness_base : undefined,
  }));
export type DepthCreateInput = z.input<typeof DepthCreateRequestSchema>;
export type DepthCreateRequest = z.output<typeof DepthCreateRequestSchema>;

export const DEPTH_FIELD_CODES: FieldCodes = {
  image: 10033003,
  image_url: 10033005,
  model_type: 10033006,
  height_relief: 10033007,
  rmbg: 10033008,
  degree_rmbg: 10033009,
  shape_base: 10033010,
  thickness_base: 10033011,
  width: 10033012,
  sculpmode: 10033013,
  response_format: 10033014,
  format: 10033015,
  callback_url: 10030001,
};

export const DepthCreateResponseSchema = CreateResultResponseSchema;
export type DepthCreateResponse = z.infer<typeof DepthCreateResponseSchema>;
export const DepthQueryResponseSchema = TaskResultResponseSchema;
export type DepthQueryResponse = z.infer<typeof DepthQueryResponseSchema>;
