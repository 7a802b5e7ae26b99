import "server-only";
import { log } from "@/lib/log";
import { eq, inArray } from "drizzle-orm";
import { db } from "@/lib/db";
import { shares, studioTasks, type StudioTask } from "@/lib/db/schema";
import { fileStore } from "@/lib/files/store";
import { resultFolder, studioKey } from "@/lib/storage";
import { ownedBy } from "../read/queries";
import { loadTask, rememberDeletedTask } from "./task-cache";

/**
 * Deleting a studio task: its row and share links go in one transaction, then its stored files
 * (result, cover, display and preview copies: all under `results/<task>`). The charge stays:
 * nothing here touches balances or the service's task, which may still be running; when it
 * ends, its callback and any refresh find no row and do nothing (a copy that was under way
 * removes what it wrote). The uploads it was made from stay: they are the user's staged files,
 * which other tasks and "run again" may name.
 *
 * A file removal that fails is logged and retried: a marker `deleted/<task>` is written in the
 * transaction and dropped once the folder is gone, and `sweepDeletedTasks` (at start and every
 * SWEEP_INTERVAL_MS) retries the removal for markers whose task row is gone.
 */

/** Who asks: their own tasks only, or any task for an admin (lib/accounts/roles). */
export interface Deleter {
  id: string;
  admin: boolean;
}

/** Task ids the studio makes (lib/storage newId, base64url); anything else names no task and never a file. */
const TASK_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** Retries of failed removals run this often, in every server. */
const SWEEP_INTERVAL_MS = 15 * 60_000;
/** A marker this young may belong to a delete still in its transaction (another server's): left alone. */
export const MARKER_MIN_AGE_MS = 60_000;

/** A deleted task whose files are still to be removed has a marker in the store: studio/deleted/<task>. */
const MARKERS = "studio/deleted";
const markerKey = (id: string) => `${MARKERS}/${id}`;

/** Deletes the task when it is the deleter's (or they are an admin); the deleted row, or null when there was none to delete. */
export async function deleteTask(deleter: Deleter, id: string): Promise<StudioTask | null> {
  if (!TASK_ID.test(id)) return null;
  const task = await (
    await db()
  ).transaction(async (tx) => {
    const owned = deleter.admin ? eq(studioTasks.id, id) : ownedBy(deleter.id, eq(studioTasks.id, id));
    // Locked, so a refresh writing the row waits for the delete (and then finds nothing).
    const [row] = await tx.select().from(studioTasks).where(owned).limit(1).for("update");
    if (!row) return null;
    // Before the commit: a crash right after it still leaves the marker to retry the files from.
    await fileStore().putBytes(markerKey(id), new Uint8Array());
    await tx.delete(shares).where(eq(shares.taskId, id));
    await tx.delete(studioTasks).where(eq(studioTasks.id, id));
    return row;
  });
  if (!task) return null;
  rememberDeletedTask(task);
  await removeFiles(task);
  return task;
}

/** The files recorded on the row, and its folder; true when all are gone (the marker then goes too). */
async function removeFiles(task: Pick<StudioTask, "id"> & Partial<StudioTask>): Promise<boolean> {
  try {
    await removeTaskFolder(task.id);
    // Files are kept in the task's folder; a path recorded elsewhere goes as well.
    for (const file of [task.resultFile, task.coverFile, task.displayFile, task.previewFile]) {
      if (file) await fileStore().delete(studioKey(file));
    }
    await fileStore().delete(markerKey(task.id));
    return true;
  } catch (error) {
    log.error({ err: error }, `[studio] removing the files of deleted task ${task.id} (retried later)`);
    return false;
  }
}

/** Removes `results/<task>` and everything in it. */
async function removeTaskFolder(id: string): Promise<void> {
  await fileStore().deletePrefix(studioKey(resultFolder(id)));
}

/**
 * For a copy or derivation whose row update matched nothing: the row as it stands now, or,
 * when the task was deleted meanwhile, removes what was just stored in its folder and
 * returns `task` (stale: nobody will read it again).
 */
export async function afterLostWrite(task: StudioTask): Promise<StudioTask> {
  const current = await loadTask(task.id);
  if (current) return current;
  await removeTaskFolder(task.id).catch((error: unknown) =>
    log.error({ err: error }, `[studio] removing the files of deleted task ${task.id}`),
  );
  return task;
}

/**
 * Retries the file removals of deleted tasks: each marker older than MARKER_MIN_AGE_MS whose
 * task row is gone has its folder removed; one whose row is still there (its delete did not
 * commit) is dropped. Returns how many deleted tasks' files went.
 */
export async function sweepDeletedTasks(now = Date.now()): Promise<number> {
  const due: string[] = [];
  for await (const marker of fileStore().list(MARKERS)) {
    const name = marker.key.slice(MARKERS.length + 1);
    if (TASK_ID.test(name) && marker.lastModified <= now - MARKER_MIN_AGE_MS) due.push(name);
  }
  if (due.length === 0) return 0;
  const rows = await (await db()).select({ id: studioTasks.id }).from(studioTasks).where(inArray(studioTasks.id, due));
  const alive = new Set(rows.map((r) => r.id));
  let removed = 0;
  for (const id of due) {
    if (alive.has(id)) await fileStore().delete(markerKey(id));
    else if (await removeFiles({ id })) removed++;
  }
  return removed;
}

/** Runs the sweep now and every SWEEP_INTERVAL_MS; the returned function stops it (waiting for a pass under way). */
export function startDeletedTaskSweeps(): () => Promise<void> {
  let pass: Promise<void> | undefined;
  const run = () => {
    pass ??= sweepDeletedTasks()
      .then(
        (removed) => {
          if (removed > 0) log.info(`[studio] housekeeping: removed the files of ${removed} deleted task(s)`);
        },
        (error: unknown) => log.error({ err: error }, "[studio] housekeeping (deleted tasks) failed"),
      )
      .finally(() => (pass = undefined));
  };
  run();
  const timer = setInterval(run, SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await pass;
  };
}
