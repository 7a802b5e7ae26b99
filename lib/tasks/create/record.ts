import "server-only";
import crypto from "node:crypto";
import { appOrigin } from "@/lib/env";
import { db } from "@/lib/db";
import { and, eq, isNull } from "drizzle-orm";
import { chargeTask, removeCharge, type ChargeRefusal } from "@/lib/credits/ledger";
import { studioTasks, type StudioTask } from "@/lib/db/schema";
import { newId } from "@/lib/storage";
import { hashSecret } from "../lifecycle/callback";
import { rememberTask } from "../lifecycle/task-cache";

/**
 * A new studio task id and its callback: the URL carries a 128-bit secret of which only the
 * hash is stored. The task is recorded (`recordChargedTask`) before the service is called with `callbackUrl`.
 */
export function prepareTask(): { id: string; callbackUrl: string; callbackSecretHash: string } {
  const id = newId(12);
  const secret = crypto.randomBytes(16).toString("base64url");
  return { id, callbackUrl: `${appOrigin()}/api/callbacks/${id}/${secret}`, callbackSecretHash: hashSecret(secret) };
}

/**
 * The service's id for a task recorded as "checking" (`recordChargedTask`) before the
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

/** A new task's row as the create path gives it; its state and times are set here. */
export type NewTask = Omit<typeof studioTasks.$inferInsert, "state" | "stateTimes" | "serviceTaskId" | "createdAt" | "updatedAt">;

/**
 * Writes a task's row, as "checking" until the service answers, and has lib/credits charge it,
 * in one transaction: refused (nothing written, nothing charged) with the cost and the
 * remainder when the owner's credits do not cover it. `limited` false (admins) charges
 * without checking the remainder.
 */
export async function recordChargedTask(task: NewTask, limited: boolean): Promise<{ ok: true; task: StudioTask } | ChargeRefusal> {
  return (await db()).transaction((tx) =>
    chargeTask(tx, { userId: task.userId, cost: task.cost ?? 0, limited }, async () => {
      const now = new Date();
      const [row] = await tx
        .insert(studioTasks)
        .values({
          ...task,
          serviceTaskId: null,
          state: "checking",
          stateTimes: { checking: now.toISOString() },
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error("inserting the task returned no row");
      return row;
    }),
  );
}

/**
 * Undoes a task the service refused or never received: its row and its charge go together, so
 * a refused task is neither stored nor charged. Only a task still "checking" without a service
 * id qualifies; whether it was one (and is gone).
 */
export async function unrecord(taskId: string): Promise<boolean> {
  return (await db()).transaction(async (tx) => {
    const gone = await tx
      .delete(studioTasks)
      .where(and(eq(studioTasks.id, taskId), eq(studioTasks.state, "checking"), isNull(studioTasks.serviceTaskId)))
      .returning({ id: studioTasks.id });
    if (gone.length) await removeCharge(tx, taskId);
    return gone.length > 0;
  });
}
