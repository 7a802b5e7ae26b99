/**
 * Schemas of split create/query (open-api.md 4.5, 4.6) and segmentation create/query (addendum,
 * 4.9): both take one mesh as a file or URL. Split's output fills the options its model requires
 * with their defaults and drops those that do not apply. Safe to import from client components.
 */
import { z } from "zod";
import { LIMITS, MESH_TYPES, type SPLIT_MODELS } from "../options";
import { optionCodes, optionsShape, refineOptions, wireOptions, type OptionsWire } from "../endpoints/client-schema";
import { inTableOrder } from "../endpoints/field";
import { SEGMENTATION_SPEC, type SegmentationSpec } from "../endpoints/segmentation";
import { SPLIT_SPEC, type SplitSpec } from "../endpoints/split";
import {
  addCodedIssue,
  CallbackUrlSchema,
  CreateResultResponseSchema,
  fileSchema,
  TaskResultResponseSchema,
  urlSchema,
  type FieldCodes,
} from "./common";

type SplitModel = (typeof SPLIT_MODELS)[number];

/** A mesh to split or segment: glb, stl or obj, at most 200 MB. */
const MeshFileSchema = fileSchema({ extensions: MESH_TYPES, maxBytes: LIMITS.meshBytes, emptyCode: 10030008, tooBigCode: 10030006 });
const MeshUrlSchema = urlSchema(MESH_TYPES, 10030005);

/** Exactly one of mesh and mesh_url. */
function oneMesh(o: { mesh?: unknown; mesh_url?: string | undefined }, ctx: z.RefinementCtx): void {
  if (!o.mesh && o.mesh_url === undefined) addCodedIssue(ctx, 10030003, "mesh", "mesh or mesh_url is required");
  if (o.mesh && o.mesh_url !== undefined) addCodedIssue(ctx, 10030004, "mesh", "give mesh or mesh_url, not both");
}

const MESH_FIELD_CODES = { mesh: 10030005, mesh_url: 10030007, callback_url: 10030001 } as const;

// ---------------------------------------------------------------- split

const MeshInputsSchema = z.object({
  mesh: MeshFileSchema.optional(),
  mesh_url: MeshUrlSchema.optional(),
  callback_url: CallbackUrlSchema.optional(),
});
type MeshInputs = z.output<typeof MeshInputsSchema>;

/** The options from lib/x3d/endpoints/split; the mesh and callback here. */
export const SplitCreateRequestSchema = MeshInputsSchema.extend(optionsShape(SPLIT_SPEC))
  .superRefine((o, ctx) => {
    oneMesh(o, ctx);
    refineOptions(SPLIT_SPEC, o, ctx);
  })
  .transform((o) => {
    const out: MeshInputs & OptionsWire<SplitSpec["fields"]> & { model: SplitModel } = {
      ...o,
      ...(wireOptions(SPLIT_SPEC, o) as OptionsWire<SplitSpec["fields"]> & { model: SplitModel }),
    };
    return inTableOrder(SPLIT_SPEC, out);
  });
export type SplitCreateInput = z.input<typeof SplitCreateRequestSchema>;

export const SPLIT_FIELD_CODES: FieldCodes = { ...MESH_FIELD_CODES, ...optionCodes(SPLIT_SPEC) };

/** Split create answers `{task_id, state: "queueing"}`. */
export const SplitCreateResponseSchema = CreateResultResponseSchema;
export const SplitQueryResponseSchema = TaskResultResponseSchema;

// ---------------------------------------------------------------- segmentation

/** The options from lib/x3d/endpoints/segmentation; the mesh and callback here. */
export const SegmentationCreateRequestSchema = MeshInputsSchema.extend(optionsShape(SEGMENTATION_SPEC))
  .superRefine((o, ctx) => {
    oneMesh(o, ctx);
    refineOptions(SEGMENTATION_SPEC, o, ctx);
  })
  .transform((o) =>
    inTableOrder(SEGMENTATION_SPEC, { ...o, ...(wireOptions(SEGMENTATION_SPEC, o) as OptionsWire<SegmentationSpec["fields"]>) }),
  );
export type SegmentationCreateInput = z.input<typeof SegmentationCreateRequestSchema>;

export const SEGMENTATION_FIELD_CODES: FieldCodes = { ...MESH_FIELD_CODES, ...optionCodes(SEGMENTATION_SPEC) };

export const SegmentationCreateResponseSchema = CreateResultResponseSchema;
export const SegmentationQueryResponseSchema = TaskResultResponseSchema;
