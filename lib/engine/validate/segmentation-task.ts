import { SEGMENTATION_SPEC } from "@/lib/x3d/spec/segmentation";
import type { SegmentationOptions } from "../generate/job";
import { callbackUrl, type FormInput } from "./form";
import { validateMeshInput, type MeshInput } from "./mesh-input";
import { readOptions } from "./spec-form";

export type SegmentationTaskOptions = SegmentationOptions & { mesh: MeshInput; callbackUrl?: string };

/** The addendum's segmentation/create-task (lib/x3d/spec/segmentation): mesh or mesh_url, seg_level, format 1..5. */
export function validateSegmentationTask(form: FormInput): SegmentationTaskOptions {
  let mesh: MeshInput | undefined;
  let callback: string | undefined;
  const { job } = readOptions(SEGMENTATION_SPEC, form, (step) => {
    if (step.input === "mesh") mesh = validateMeshInput(form);
    else if (step.input === "callback_url") callback = callbackUrl(form);
  });
  return { ...job, mesh: mesh ?? validateMeshInput(form), callbackUrl: callback };
}
