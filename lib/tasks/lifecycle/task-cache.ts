import "server-only";
import { eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { studioTasks, type StudioTask } from "@/lib/db/schema";
import { processConstant } from "@/lib/global-singleton";
import { TtlCache } from "@/lib/ttl-cache";
import { announceTaskDeleted, announceTaskRow, noteTaskRow } from "./live/publish";

/**
 * Studio task rows as the status route reads them, kept for a moment: hundreds of pages may
 * poll the same tasks every second, and an unchanged task should cost no database work.
 * Writes made by this process replace the entry at once; another process's writes show after
 * at most TASK_CACHE_MS (each process still claims refreshes through the database).
 */
export const TASK_CACHE_MS = 1_000;

// On globalThis: route handlers are separate module graphs, and all must see one cache.
const cache = () => processConstant("x3d.studio.task-cache", () => new TtlCache<string, StudioTask | null>(TASK_CACHE_MS, 20_000));

/**
 * Tasks deleted by this process lately. A read or write that began before the delete may end
 * after it; its row must not put the task back in the cache, where polls would see it.
 */
const deleted = () => processConstant("x3d.studio.deleted-tasks", () => new TtlCache<string, true>(10 * 60_000, 20_000));

/** The task row, from the cache when it was read or written within TASK_CACHE_MS; null when it does not exist. */
export async function cachedTask(id: string): Promise<StudioTask | null> {
  const known = cache().get(id);
  if (known !== undefined) return known;
  return loadTask(id);
}

/** The task row from the database (and into the cache). */
export async function loadTask(id: string): Promise<StudioTask | null> {
  const [row] = await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id)).limit(1);
  if (deleted().get(id)) {
    cache().set(id, null);
    return null;
  }
  cache().set(id, row ?? null);
  if (row) noteTaskRow(row);
  return row ?? null;
}

/**
 * Records a row this process just wrote, and announces it to the task pages watching it when
 * what they show changed (lib/tasks/lifecycle/live): every write of a task row comes through here.
 */
export function rememberTask(task: StudioTask): StudioTask {
  if (deleted().get(task.id)) return task;
  cache().set(task.id, task);
  announceTaskRow(task);
  return task;
}

/** Records that a task was deleted: this process answers "no such task" from now on. */
export function forgetDeletedTask(id: string): void {
  deleted().set(id, true);
  cache().set(id, null);
}

/** Records that this process deleted the task, and announces it to the pages watching it. */
export function rememberDeletedTask(task: Pick<StudioTask, "id" | "userId">): void {
  forgetDeletedTask(task.id);
  announceTaskDeleted(task);
}

/** Drops a task from the cache, e.g. after a write whose result was not returned. */
export function forgetTask(id: string): void {
  cache().delete(id);
}
