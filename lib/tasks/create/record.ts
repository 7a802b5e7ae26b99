import "server-only";
import crypto from "node:crypto";
import { appOrigin } from "@/lib/env";
import { db } from "@/lib/db";
import { and, eq, isNull } from "drizzle-orm";
import { studioTasks } from "@/lib/db/schema";
import { newId } from "@/lib/storage";
import { hashSecret } from "../lifecycle/callback";
import { rememberTask } from "../lifecycle/task-cache";

/**
 * A new studio task id and its callback: the URL carries a 128-bit secret of which only the
 * hash is stored. The task is recorded (lib/credits chargeAndRecord) before the service is called with `callbackUrl`.
 */
export function prepareTask(): { id: string; callbackUrl: string; callbackSecretHash: string } {
  const id = newId(12);
  const secret = crypto.randomBytes(16).toString("base64url");
  return { id, callbackUrl: `${appOrigin()}/api/callbacks/${id}/${secret}`, callbackSecretHash: hashSecret(secret) };
}

/**
 * The service's id for a task recorded as "checking" (lib/credits chargeAndRecord) before the
 * service was called: the task is "created" from now on. A callback that came first and
 * adopted the task already did this; then nothing changes.
 */
export async function confirmTask(id: string, serviceTaskId: string): Promise<void> {
  const now = new Date();
  const [row] = await (
    await db()
  )
    .update(studioTasks)
    .set({ serviceTaskId, state: "created", stateTimes: { created: now.toISOString() }, updatedAt: now })
    .where(and(eq(studioTasks.id, id), eq(studioTasks.state, "checking"), isNull(studioTasks.serviceTaskId)))
    .returning();
  if (row) rememberTask(row);
}
