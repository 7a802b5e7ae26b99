/**
 * A task's options and inputs as they come out of the database (jsonb), parsed with the schema
 * of its endpoint's spec rather than cast: a row written by an older or foreign server that
 * does not fit fails the task with a clear reason instead of reaching a generator.
 */
import { z } from "zod";
import { VIEWS } from "@/lib/x3d/options";
import { DEPTH_SPEC } from "@/lib/x3d/endpoints/depth";
import { jobSchema } from "@/lib/x3d/endpoints/job";
import { SEGMENTATION_SPEC } from "@/lib/x3d/endpoints/segmentation";
import { SPLIT_SPEC } from "@/lib/x3d/endpoints/split";
import { SUBMIT_TASK_SPEC } from "@/lib/x3d/endpoints/submit-task";

const InputSourceSchema = z.union([z.object({ file: z.string().min(1) }), z.object({ url: z.string().min(1) })]);

const Images = z.object({
  images: z.array(z.object({ key: z.enum(VIEWS), source: InputSourceSchema })).min(1),
  mesh: InputSourceSchema.optional(),
});
const OneMesh = z.object({ mesh: InputSourceSchema });
const OneImage = z.object({ image: InputSourceSchema });

/** Per task kind: the job options' schema and the inputs' schema. */
export const STORED_JOB = {
  "image-to-3d": { options: jobSchema(SUBMIT_TASK_SPEC), inputs: Images },
  split: { options: jobSchema(SPLIT_SPEC), inputs: OneMesh },
  depth: { options: jobSchema(DEPTH_SPEC), inputs: OneImage },
  segmentation: { options: jobSchema(SEGMENTATION_SPEC), inputs: OneMesh },
} as const;

type Stored<K extends keyof typeof STORED_JOB> = {
  options: z.output<(typeof STORED_JOB)[K]["options"]>;
  inputs: z.output<(typeof STORED_JOB)[K]["inputs"]>;
};

/** Parses stored options and inputs of a task kind, or throws naming what does not fit. */
export function parseStored<K extends keyof typeof STORED_JOB>(kind: K, options: unknown, inputs: unknown): Stored<K> {
  const schemas = STORED_JOB[kind];
  const o = schemas.options.safeParse(options);
  if (!o.success) throw new Error(`stored ${kind} options do not fit the spec: ${z.prettifyError(o.error)}`);
  const i = schemas.inputs.safeParse(inputs);
  if (!i.success) throw new Error(`stored ${kind} inputs do not fit: ${z.prettifyError(i.error)}`);
  return { options: o.data, inputs: i.data } as Stored<K>;
}
