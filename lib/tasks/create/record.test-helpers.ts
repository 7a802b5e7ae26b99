// Plants a studio task row as the studio records one, without a charge: for tests of what
// happens to a task after it exists (refresh, callbacks, sharing).
import { db } from "@/lib/db";
import { studioTasks, type StudioTask, type StudioTaskKind } from "@/lib/db/schema";

export interface NewStudioTask {
  id: string;
  userId: string;
  kind: StudioTaskKind;
  /** Null when the create's answer was lost: the task is then recorded as "checking". */
  serviceTaskId: string | null;
  /** Wire-named options as submitted, for display and "run again". */
  options: Record<string, unknown>;
  /** Upload ids and source task ids, e.g. {images: [...uploadIds], mesh: {task: id}}. */
  inputs: Record<string, unknown>;
  cost: number;
  callbackSecretHash: string | null;
}

/** Stores a task the service accepted (first state `created`), or one whose answer was lost (`checking`, no service id). */
export async function recordTask(task: NewStudioTask): Promise<StudioTask> {
  const state = task.serviceTaskId === null ? "checking" : "created";
  const [row] = await (
    await db()
  )
    .insert(studioTasks)
    .values({ ...task, state, stateTimes: { [state]: new Date().toISOString() } })
    .returning();
  if (!row) throw new Error("inserting the task returned no row");
  return row;
}

/**
 * Writes a task row as it stands at some later point of its life (any state, any columns),
 * for tests of what reads or settles it: a finished image-to-3D task unless `values` say otherwise.
 */
export async function plantTaskRow(values: Partial<StudioTask> & Pick<StudioTask, "id" | "userId">): Promise<StudioTask> {
  const [row] = await (
    await db()
  )
    .insert(studioTasks)
    .values({ kind: "image-to-3d", serviceTaskId: "svc", options: {}, inputs: {}, state: "success", stateTimes: {}, ...values })
    .returning();
  if (!row) throw new Error("inserting the task returned no row");
  return row;
}
