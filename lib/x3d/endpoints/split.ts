/**
 * split/create-task (open-api.md 4.5): a character is cut into parts (with joints and merging),
 * a general model by a level. Options of the other model are ignored by the service.
 */
import { MESH_FORMATS, SPLIT_DEFAULTS, SPLIT_JOINTS, SPLIT_LEVELS, SPLIT_MODELS, SPLIT_PARTS, type SplitPart } from "../options";
import { endpoint, MESH_INPUTS, type ChoiceField, type IntChoiceField } from "./field";

const PART_KEYS = Object.keys(SPLIT_PARTS) as SplitPart[];
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function splitSpec() {
  const fields = {
    model: {
      type: "choice",
      doc: "character: body parts; general: parts by level.",
      values: SPLIT_MODELS,
      default: SPLIT_DEFAULTS.model,
      code: 10032001,
      clientFills: true,
      job: { name: "model" },
    } as const satisfies ChoiceField<(typeof SPLIT_MODELS)[number]>,
    part: {
      type: "choice",
      doc: "How a character is cut.",
      values: PART_KEYS,
      labels: SPLIT_PARTS,
      default: SPLIT_DEFAULTS.part,
      code: 10032002,
      clientFills: true,
      job: { name: "part" },
    } as const satisfies ChoiceField<SplitPart>,
    joint: {
      type: "choice",
      doc: "The joint printed between a character's parts.",
      values: SPLIT_JOINTS,
      labels: Object.fromEntries(SPLIT_JOINTS.map((j) => [j, capital(j)])) as Record<(typeof SPLIT_JOINTS)[number], string>,
      default: SPLIT_DEFAULTS.joint,
      code: 10032003,
      clientFills: true,
      job: { name: "joint" },
    } as const satisfies ChoiceField<(typeof SPLIT_JOINTS)[number]>,
    merge: {
      type: "choice",
      doc: "Merge the joints into the parts.",
      values: ["yes", "no"],
      default: SPLIT_DEFAULTS.merge,
      code: 10032004,
      clientFills: true,
      job: { name: "merge", boolean: true },
    } as const satisfies ChoiceField<"yes" | "no">,
    level: {
      type: "choice",
      doc: "How finely a general model is split.",
      values: SPLIT_LEVELS,
      labels: Object.fromEntries(SPLIT_LEVELS.map((l) => [l, capital(l)])) as Record<(typeof SPLIT_LEVELS)[number], string>,
      default: SPLIT_DEFAULTS.level,
      code: 10032005,
      clientFills: true,
      job: { name: "level" },
    } as const satisfies ChoiceField<(typeof SPLIT_LEVELS)[number]>,
    format: {
      type: "int-choice",
      doc: "Output format.",
      values: MESH_FORMATS,
      default: SPLIT_DEFAULTS.format,
      code: 10030002,
      form: { start: 2 },
      job: { name: "format" },
    } as const satisfies IntChoiceField<keyof typeof MESH_FORMATS>,
  } as const;
  return endpoint({
    path: "/split/create-task",
    summary: "Split a mesh into printable parts.",
    fields,
    rules: {
      part: { applies: (v) => v.model === "character", doc: "Only for model character." },
      joint: { applies: (v) => v.model === "character", doc: "Only for model character." },
      merge: { applies: (v) => v.model === "character" && v.joint !== "none", doc: "Only for model character with a joint." },
      level: { applies: (v) => v.model === "general", doc: "Only for model general." },
    },
    table: ["mesh", "mesh_url", "model", "part", "joint", "merge", "level", "format", "callback_url"],
    inputs: MESH_INPUTS,
    cost: (table) => table.split,
    scheme: "Bearer",
    query: { path: "/split/query-task", scheme: "Token" },
    order: [{ input: "mesh" }, "model", "part", "joint", "merge", "level", "format", { input: "callback_url" }],
  });
}

export const SPLIT_SPEC = splitSpec();
export type SplitSpec = typeof SPLIT_SPEC;
