/**
 * A studio task's kind and state as components name them, and the ones the gallery filters
 * by. Safe for client components, which do not import lib/db.
 */
import type { StudioTaskKind, TaskState } from "@/lib/db/schema";

export type { StudioTaskKind, TaskState };

export const TASK_KINDS = ["image-to-3d", "texture", "split", "depth", "segmentation"] as const satisfies readonly StudioTaskKind[];
/** The states a task shows once created ("checking" lasts only while a create's answer is lost). */
export const TASK_STATES = ["created", "queueing", "processing", "success", "failed"] as const satisfies readonly TaskState[];
