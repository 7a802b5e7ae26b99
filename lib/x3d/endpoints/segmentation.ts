/** segmentation/create-task (addendum, open-api.md 4.9): a mesh into labelled parts. */
import { SEG_LEVELS, SEGMENTATION_DEFAULTS, SEGMENTATION_FORMATS } from "../options";
import { endpoint, MESH_INPUTS, type ChoiceField, type IntChoiceField } from "./field";

function segmentationSpec() {
  const fields = {
    seg_level: {
      type: "choice",
      doc: "How finely the mesh is segmented.",
      values: SEG_LEVELS,
      labels: { low: "Low", medium: "Medium", high: "High" },
      default: SEGMENTATION_DEFAULTS.seg_level,
      code: 10034001,
      job: { name: "segLevel" },
    } as const satisfies ChoiceField<(typeof SEG_LEVELS)[number]>,
    format: {
      type: "int-choice",
      doc: "Output format (image-to-3D's formats 1 to 5).",
      values: SEGMENTATION_FORMATS,
      default: SEGMENTATION_DEFAULTS.format,
      code: 10030002,
      form: { start: 2 },
      job: { name: "format" },
    } as const satisfies IntChoiceField<keyof typeof SEGMENTATION_FORMATS>,
  } as const;
  return endpoint({
    path: "/segmentation/create-task",
    summary: "Segment a mesh into parts.",
    fields,
    rules: {},
    table: ["mesh", "mesh_url", "seg_level", "format", "callback_url"],
    inputs: MESH_INPUTS,
    cost: (table) => table.segmentation,
    scheme: "Token",
    query: { path: "/segmentation/query-task", scheme: "Token" },
    order: [{ input: "mesh" }, "seg_level", "format", { input: "callback_url" }],
  });
}

export const SEGMENTATION_SPEC = segmentationSpec();
export type SegmentationSpec = typeof SEGMENTATION_SPEC;
