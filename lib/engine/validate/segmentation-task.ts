import { SEG_LEVELS, SEGMENTATION_DEFAULTS } from "@/lib/x3d/options";
import type { SegmentationJob } from "../generate/job";
import { callbackUrl, choice, intChoice, text, type FormInput } from "./form";
import { validateMeshInput, type MeshInput } from "./mesh-input";

export type SegmentationTaskOptions = Omit<SegmentationJob, "kind" | "meshPath"> & { mesh: MeshInput; callbackUrl?: string };

/** The addendum's segmentation/create-task: mesh or mesh_url, seg_level, format 1..5. */
export function validateSegmentationTask(form: FormInput): SegmentationTaskOptions {
  const mesh = validateMeshInput(form);
  const segLevel = choice(text(form, "seg_level"), SEGMENTATION_DEFAULTS.seg_level, SEG_LEVELS, 10034001, "seg_level");
  const format = intChoice<1 | 2 | 3 | 4 | 5>(text(form, "format"), SEGMENTATION_DEFAULTS.format, [1, 2, 3, 4, 5], 10030002, "format");
  return { mesh, segLevel, format, callbackUrl: callbackUrl(form) };
}
