import type { ValuesOf } from "@/lib/x3d/endpoints/field";
import { SEGMENTATION_SPEC, type SegmentationSpec } from "@/lib/x3d/endpoints/segmentation";
import type { SegmentationOptions } from "../generate/job";
import { callbackUrl, type FormInput } from "./form";
import { validateMeshInput, type MeshInput } from "./mesh-input";
import { readOptions } from "./spec-form";

export type SegmentationTaskOptions = {
  /** What the generator's job receives. */
  options: SegmentationOptions;
  /** The values as read, by wire name (for the cost). */
  values: ValuesOf<SegmentationSpec["fields"]>;
  mesh: MeshInput;
  callbackUrl?: string;
};

/** The addendum's segmentation/create-task (lib/x3d/endpoints/segmentation): mesh or mesh_url, seg_level, format 1..5. */
export function validateSegmentationTask(form: FormInput): SegmentationTaskOptions {
  let mesh: MeshInput | undefined;
  let callback: string | undefined;
  const { job, values } = readOptions(SEGMENTATION_SPEC, form, (step) => {
    if (step.input === "mesh") mesh = validateMeshInput(form);
    else if (step.input === "callback_url") callback = callbackUrl(form);
  });
  return { options: job, values, mesh: mesh ?? validateMeshInput(form), callbackUrl: callback };
}
