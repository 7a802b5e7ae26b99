/**
 * Words for task kinds and states, shared by the task page, the gallery, the workspace and share
 * pages. Safe to import from client components. An option's words are in option-labels.ts, which
 * brings the option tables with it: only the panels that list options load them.
 */
import type { StudioTaskKind, TaskState } from "@/lib/tasks/model/task-types";

export const KIND_LABELS: Record<StudioTaskKind, string> = {
  "image-to-3d": "Image to 3D",
  texture: "Texture",
  split: "Split",
  depth: "Depth & relief",
  segmentation: "Segmentation",
};

/** What each kind makes, in one line (the home page's ways to start). */
export const KIND_SUMMARIES: Record<StudioTaskKind, string> = {
  "image-to-3d": "A textured model from one photo or four views.",
  texture: "Paint an existing model from an image.",
  split: "Cut a model into printable parts with joints.",
  depth: "A depth map or a printable relief.",
  segmentation: "Label a model's parts.",
};

/** The form that makes each kind (for "run again"). */
export const KIND_FORMS: Record<StudioTaskKind, string> = {
  "image-to-3d": "/new/image",
  texture: "/new/texture",
  split: "/new/split",
  depth: "/new/depth",
  segmentation: "/new/segmentation",
};

export const STATE_LABELS: Record<TaskState, string> = {
  checking: "Checking",
  created: "Created",
  queueing: "Queueing",
  processing: "Processing",
  success: "Done",
  failed: "Failed",
};

export const isFinished = (state: TaskState) => state === "success" || state === "failed";

/** What a failed task says when the service gave no reason. */
export const FAILED_WITHOUT_REASON = "The service could not finish it.";

/** What a failed task says of its refund. */
export function refundSentence(cost: number): string {
  return cost > 0 ? `The ${cost} credits it cost were refunded to your balance.` : "Its credits were refunded.";
}
