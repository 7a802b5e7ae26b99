import "server-only";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { db } from "@/lib/db";
import { studioTasks, type DisplayState, type StudioTask } from "@/lib/db/schema";
import { storedPath } from "@/lib/storage";
import { storedFormat } from "./results";
import { rememberTask } from "./task-cache";

/** Result formats the viewer draws from a GLB display copy; other results (depth images) have none. */
export const MESH_RESULT_FORMATS = ["glb", "zip", "obj", "stl", "fbx", "usdz", "3mf"] as const;
export type MeshResultFormat = (typeof MESH_RESULT_FORMATS)[number];
const isMeshFormat = (format: string | null): format is MeshResultFormat => (MESH_RESULT_FORMATS as readonly (string | null)[]).includes(format);

export interface DerivedCopies {
  /** File names written into the output folder. */
  display: { file: string };
  preview: { file: string } | null;
}

/** Writes display.glb (and preview.glb for large models) for the mesh at `input` into `outDir`. */
export type DeriveDisplay = (input: string, format: MeshResultFormat, outDir: string) => Promise<DerivedCopies>;

/**
 * Derives the viewer's copies of a task's stored result, once: the original stays the
 * download, byte for byte. A derivation that fails leaves the viewer on the original.
 */
export async function makeDisplayCopy(task: StudioTask, derive: DeriveDisplay): Promise<StudioTask> {
  if (!task.resultFile || task.displayState !== null) return task;
  const format = storedFormat(task.resultFile);
  if (!isMeshFormat(format)) return record(task, { displayState: "none" });
  const folder = path.dirname(task.resultFile);
  try {
    const copies = await derive(storedPath(task.resultFile), format, storedPath(folder));
    return await record(task, {
      displayState: "ready",
      displayFile: path.join(folder, path.basename(copies.display.file)),
      previewFile: copies.preview ? path.join(folder, path.basename(copies.preview.file)) : null,
    });
  } catch (error) {
    console.error(`[studio] deriving the display copy of task ${task.id}:`, error);
    return record(task, { displayState: "failed" });
  }
}

async function record(
  task: StudioTask,
  values: { displayState: DisplayState; displayFile?: string; previewFile?: string | null },
): Promise<StudioTask> {
  const [row] = await (await db())
    .update(studioTasks)
    .set(values)
    .where(and(eq(studioTasks.id, task.id), isNull(studioTasks.displayState)))
    .returning();
  if (row) return rememberTask(row);
  const [fresh] = await (await db()).select().from(studioTasks).where(eq(studioTasks.id, task.id));
  return fresh ? rememberTask(fresh) : task;
}
