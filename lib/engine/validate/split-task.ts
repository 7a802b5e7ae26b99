import type { ValuesOf } from "@/lib/x3d/endpoints/field";
import { SPLIT_SPEC, type SplitSpec } from "@/lib/x3d/endpoints/split";
import type { SplitOptions } from "../generate/job";
import { callbackUrl, type FormInput } from "./form";
import { validateMeshInput, type MeshInput } from "./mesh-input";
import { readOptions } from "./spec-form";

export type SplitTaskOptions = {
  /** What the generator's job receives. */
  options: SplitOptions;
  /** The values as read, by wire name (for the cost). */
  values: ValuesOf<SplitSpec["fields"]>;
  mesh: MeshInput;
  callbackUrl?: string;
};

/** open-api.md 4.5 (lib/x3d/endpoints/split); options that do not apply to the chosen model are read but not used. */
export function validateSplitTask(form: FormInput): SplitTaskOptions {
  let mesh: MeshInput | undefined;
  let callback: string | undefined;
  const { job, values } = readOptions(SPLIT_SPEC, form, (step) => {
    if (step.input === "mesh") mesh = validateMeshInput(form);
    else if (step.input === "callback_url") callback = callbackUrl(form);
  });
  return { options: job, values, mesh: mesh ?? validateMeshInput(form), callbackUrl: callback };
}
