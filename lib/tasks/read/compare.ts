import "server-only";
import type { StudioTask } from "@/lib/db/schema";
import { fileStore } from "@/lib/files/store";
import { studioKey } from "@/lib/storage";
import { formatFromExtension, isImageFormat, type ModelFormat } from "@/lib/viewer/formats";
import { differingOptions } from "./option-diff";
import { findUserTask } from "./queries";
import { taskView } from "../model/task-view";

/** One side of the compare page: what its viewer loads and what the stats table says of it. */
export interface CompareSide {
  id: string;
  kind: StudioTask["kind"];
  createdAt: string;
  /** The display copy when there is one, else the stored result. */
  viewUrl: string;
  viewFormat: ModelFormat;
  /** The stored result's format and size in bytes (the download). */
  format: string;
  fileSize: number | null;
  options: Record<string, unknown>;
}

export type CompareOutcome =
  | { status: "ok"; a: CompareSide; b: CompareSide; differing: string[] }
  /** Both are the user's, but one cannot be shown as a 3D model (unfinished, or a depth image). */
  | { status: "not-comparable"; reason: string }
  | { status: "not-found" };

async function fileSize(relative: string): Promise<number | null> {
  try {
    return (await fileStore().stat(studioKey(relative)))?.size ?? null;
  } catch {
    return null;
  }
}

async function side(task: StudioTask): Promise<CompareSide | string> {
  const view = taskView(task);
  if (!task.resultFile || !view.result.url || !view.result.format) return "Both tasks must be finished with their result stored.";
  const viewFormat = view.display.url ? "glb" : formatFromExtension(view.result.format);
  if (!viewFormat || isImageFormat(viewFormat)) return `A ${view.result.format.toUpperCase()} result cannot be compared in 3D.`;
  return {
    id: task.id,
    kind: task.kind,
    createdAt: view.createdAt,
    viewUrl: view.display.url ?? view.result.url,
    viewFormat,
    format: view.result.format,
    fileSize: await fileSize(task.resultFile),
    options: view.options,
  };
}

/** Two of the user's tasks side by side; either one not theirs (or unknown) is not found. */
export async function compareTasks(userId: string, idA: string, idB: string): Promise<CompareOutcome> {
  const [taskA, taskB] = await Promise.all([findUserTask(userId, idA), findUserTask(userId, idB)]);
  if (!taskA || !taskB) return { status: "not-found" };
  const [a, b] = await Promise.all([side(taskA), side(taskB)]);
  if (typeof a === "string") return { status: "not-comparable", reason: a };
  if (typeof b === "string") return { status: "not-comparable", reason: b };
  return { status: "ok", a, b, differing: differingOptions(a.options, b.options) };
}
