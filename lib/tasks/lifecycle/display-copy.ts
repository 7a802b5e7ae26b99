import "server-only";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { db } from "@/lib/db";
import { studioTasks, type DisplayState, type StudioTask } from "@/lib/db/schema";
import { log } from "@/lib/log";
import { fileStore } from "@/lib/files/store";
import { studioKey } from "@/lib/storage";
import { MODEL_FORMATS, type ModelFormat } from "@/lib/viewer/formats";
import { storedFormat } from "../model/results";
import { afterLostWrite } from "./delete-task";
import { loadTask, rememberTask } from "./task-cache";

/** Mesh results get a GLB display copy; other results (depth images) have none. */
const isMeshFormat = (format: string | null): format is ModelFormat => (MODEL_FORMATS as readonly (string | null)[]).includes(format);

interface DerivedCopies {
  /** File names written into the output folder. */
  display: { file: string };
  preview: { file: string } | null;
}

/** Writes display.glb (and preview.glb for large models) for the mesh at `input` into `outDir`; `signal` stops it. */
export type DeriveDisplay = (input: string, format: ModelFormat, outDir: string, signal?: AbortSignal) => Promise<DerivedCopies>;

/**
 * Derives the viewer's copies of a task's stored result, once: the original stays the
 * download, byte for byte. A derivation that fails leaves the viewer on the original; one
 * stopped by `signal` (the server stopping) is left to do, for the next refresh.
 */
export async function makeDisplayCopy(task: StudioTask, derive: DeriveDisplay, signal?: AbortSignal): Promise<StudioTask> {
  if (!task.resultFile || task.displayState !== null) return task;
  const format = storedFormat(task.resultFile);
  if (!isMeshFormat(format)) return record(task, { displayState: "none" });
  const folder = path.posix.dirname(task.resultFile);
  // The result's folder on local disk: the stored folder itself, or a scratch copy with S3.
  const local = await fileStore().folder(studioKey(folder));
  try {
    const input = await local.fetch(path.posix.basename(task.resultFile));
    if (!input) throw new Error(`${task.resultFile} is not stored`);
    const copies = await derive(input, format, local.path, signal);
    for (const copy of [copies.display, copies.preview]) if (copy) await local.keep(path.basename(copy.file), "model/gltf-binary");
    return await record(task, {
      displayState: "ready",
      displayFile: path.posix.join(folder, path.basename(copies.display.file)),
      previewFile: copies.preview ? path.posix.join(folder, path.basename(copies.preview.file)) : null,
    });
  } catch (error) {
    if (signal?.aborted) return task;
    // Deleted meanwhile (its folder went under the derivation): nothing failed that anyone will see.
    if (!(await loadTask(task.id))) return afterLostWrite(task);
    log.error({ err: error }, `[studio] deriving the display copy of task ${task.id} failed`);
    return record(task, { displayState: "failed" });
  } finally {
    await local.release();
  }
}

async function record(
  task: StudioTask,
  values: { displayState: DisplayState; displayFile?: string; previewFile?: string | null },
): Promise<StudioTask> {
  const [row] = await (
    await db()
  )
    .update(studioTasks)
    .set(values)
    .where(and(eq(studioTasks.id, task.id), isNull(studioTasks.displayState)))
    .returning();
  return row ? rememberTask(row) : afterLostWrite(task);
}
