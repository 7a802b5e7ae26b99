import { SPLIT_DEFAULTS, SPLIT_JOINTS, SPLIT_LEVELS, SPLIT_MODELS, SPLIT_PARTS, type SplitPart } from "@/lib/x3d/options";
import type { MeshFormat, SplitJob } from "../generate/job";
import { callbackUrl, choice, intChoice, text, type FormInput } from "./form";
import { validateMeshInput, type MeshInput } from "./mesh-input";

export type SplitTaskOptions = Omit<SplitJob, "kind" | "meshPath"> & { mesh: MeshInput; callbackUrl?: string };

/** open-api.md 4.5; options that do not apply to the chosen model are ignored. */
export function validateSplitTask(form: FormInput): SplitTaskOptions {
  const mesh = validateMeshInput(form);
  const model = choice(text(form, "model"), SPLIT_DEFAULTS.model, SPLIT_MODELS, 10032001, "model");
  const part = choice(text(form, "part"), SPLIT_DEFAULTS.part, Object.keys(SPLIT_PARTS) as SplitPart[], 10032002, "part");
  const joint = choice(text(form, "joint"), SPLIT_DEFAULTS.joint, SPLIT_JOINTS, 10032003, "joint");
  const merge = choice(text(form, "merge"), SPLIT_DEFAULTS.merge, ["yes", "no"] as const, 10032004, "merge");
  const level = choice(text(form, "level"), SPLIT_DEFAULTS.level, SPLIT_LEVELS, 10032005, "level");
  const format = intChoice<MeshFormat>(text(form, "format"), SPLIT_DEFAULTS.format, [1, 2, 3, 4, 5, 6], 10030002, "format");
  return { mesh, model, part, joint, merge: merge === "yes", level, format, callbackUrl: callbackUrl(form) };
}
