/**
 * Schemas of split create/query (open-api.md 4.5, 4.6) and segmentation create/query (addendum,
 * 4.9): both take one mesh as a file or URL. Split's output fills the options its model requires
 * with their defaults and drops those that do not apply. Safe to import from client components.
 */
import { z } from "zod";
import {
  LIMITS,
  MESH_TYPES,
  SEG_LEVELS,
  SEGMENTATION_FORMATS,
  SPLIT_DEFAULTS,
  SPLIT_JOINTS,
  SPLIT_LEVELS,
  SPLIT_MODELS,
  SPLIT_PARTS,
  type SplitPart,
} from "../options";
import {
  addCodedIssue,
  CallbackUrlSchema,
  CreateResultResponseSchema,
  fileSchema,
  MeshFormatSchema,
  TaskResultResponseSchema,
  urlSchema,
  type FieldCodes,
} from "./common";

/** A mesh to split or segment: glb, stl or obj, at most 200 MB. */
export const MeshFileSchema = fileSchema({ extensions: MESH_TYPES, maxBytes: LIMITS.meshBytes, emptyCode: 10030008, tooBigCode: 10030006 });
export const MeshUrlSchema = urlSchema(MESH_TYPES, 10030005);

/** Exactly one of mesh and mesh_url. */
function oneMesh(o: { mesh?: unknown; mesh_url?: string | undefined }, ctx: z.RefinementCtx): void {
  if (!o.mesh && o.mesh_url === undefined) addCodedIssue(ctx, 10030003, "mesh", "mesh or mesh_url is required");
  if (o.mesh && o.mesh_url !== undefined) addCodedIssue(ctx, 10030004, "mesh", "give mesh or mesh_url, not both");
}

const MESH_FIELD_CODES = { mesh: 10030005, mesh_url: 10030007, format: 10030002, callback_url: 10030001 } as const;

// ---------------------------------------------------------------- split

const SPLIT_PART_KEYS = Object.keys(SPLIT_PARTS) as SplitPart[];

export const SplitCreateRequestSchema = z
  .object({
    mesh: MeshFileSchema.optional(),
    mesh_url: MeshUrlSchema.optional(),
    model: z.enum(SPLIT_MODELS).default(SPLIT_DEFAULTS.model),
    part: z.enum(SPLIT_PART_KEYS).optional(),
    joint: z.enum(SPLIT_JOINTS).optional(),
    merge: z.enum(["yes", "no"]).optional(),
    level: z.enum(SPLIT_LEVELS).optional(),
    format: MeshFormatSchema.optional(),
    callback_url: CallbackUrlSchema.optional(),
  })
  .superRefine(oneMesh)
  .transform(({ part, joint, merge, level, ...rest }) => {
    if (rest.model === "general") return { ...rest, level: level ?? SPLIT_DEFAULTS.level };
    const j = joint ?? SPLIT_DEFAULTS.joint;
    return { ...rest, part: part ?? SPLIT_DEFAULTS.part, joint: j, merge: j === "none" ? undefined : (merge ?? SPLIT_DEFAULTS.merge) };
  });
export type SplitCreateInput = z.input<typeof SplitCreateRequestSchema>;
export type SplitCreateRequest = z.output<typeof SplitCreateRequestSchema>;

export const SPLIT_FIELD_CODES: FieldCodes = {
  ...MESH_FIELD_CODES,
  model: 10032001,
  part: 10032002,
  joint: 10032003,
  merge: 10032004,
  level: 10032005,
};

/** Split create answers `{task_id, state: "queueing"}`. */
export const SplitCreateResponseSchema = CreateResultResponseSchema;
export type SplitCreateResponse = z.infer<typeof SplitCreateResponseSchema>;
export const SplitQueryResponseSchema = TaskResultResponseSchema;
export type SplitQueryResponse = z.infer<typeof SplitQueryResponseSchema>;

// ---------------------------------------------------------------- segmentation

const SEGMENTATION_FORMAT_KEYS = Object.keys(SEGMENTATION_FORMATS).map(Number) as (keyof typeof SEGMENTATION_FORMATS)[];

export const SegmentationCreateRequestSchema = z
  .object({
    mesh: MeshFileSchema.optional(),
    mesh_url: MeshUrlSchema.optional(),
    seg_level: z.enum(SEG_LEVELS).optional(),
    /** 1 obj, 2 glb, 3 stl, 4 fbx, 5 usdz. */
    format: z.literal(SEGMENTATION_FORMAT_KEYS).optional(),
    callback_url: CallbackUrlSchema.optional(),
  })
  .superRefine(oneMesh);
export type SegmentationCreateInput = z.input<typeof SegmentationCreateRequestSchema>;
export type SegmentationCreateRequest = z.output<typeof SegmentationCreateRequestSchema>;

export const SEGMENTATION_FIELD_CODES: FieldCodes = { ...MESH_FIELD_CODES, seg_level: 10034001 };

export const SegmentationCreateResponseSchema = CreateResultResponseSchema;
export type SegmentationCreateResponse = z.infer<typeof SegmentationCreateResponseSchema>;
export const SegmentationQueryResponseSchema = TaskResultResponseSchema;
export type SegmentationQueryResponse = z.infer<typeof SegmentationQueryResponseSchema>;
