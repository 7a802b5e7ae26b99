import type { EndpointSpec, Fields, InputStep, JobOf, ValuesOf } from "@/lib/x3d/endpoints/field";
import { toJob } from "@/lib/x3d/endpoints/job";
import { readForService, type Problem } from "@/lib/x3d/endpoints/read";
import { EngineError } from "../engine-error";
import { text, type FormInput } from "./form";

const fail = (problem: Problem): never => {
  throw new EngineError(problem.code, problem.detail);
};

/**
 * An endpoint's options read from a create request by its spec (lib/x3d/endpoints), in the
 * contract's order: the first problem answers with its code. `inputs` checks the files and
 * URLs where the order puts them.
 */
export function readOptions<F extends Fields>(
  spec: EndpointSpec<F>,
  form: FormInput,
  inputs: (step: InputStep, values: Partial<ValuesOf<F>>) => void,
): { values: ValuesOf<F>; job: JobOf<F> } {
  const values = readForService(spec, (name) => text(form, name), fail, inputs);
  return { values, job: toJob(spec, values) };
}
