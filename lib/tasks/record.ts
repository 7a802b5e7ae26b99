import "server-only";
import crypto from "node:crypto";
import { appOrigin } from "@/lib/env";
import { db } from "@/lib/db";
import { studioTasks, type StudioTask, type StudioTaskKind } from "@/lib/db/schema";
import { newId } from "@/lib/storage";

export const hashSecret = (secret: string) => crypto.createHash("sha256").update(secret).digest("hex");

/**
 * A new studio task id and its callback: the URL carries a 128-bit secret of which only the
 * hash is stored. Create the service task with `callbackUrl`, then `recordTask` with the rest.
 */
export function prepareTask(): { id: string; callbackUrl: string; callbackSecretHash: string } {
  const id = newId(12);
  const secret = crypto.randomBytes(16).toString("base64url");
  return { id, callbackUrl: `${appOrigin()}/api/callbacks/${id}/${secret}`, callbackSecretHash: hashSecret(secret) };
}

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
