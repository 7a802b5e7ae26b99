import "server-only";
import { and, eq, gte, sql } from "drizzle-orm";
import type { TaskKind } from "@/lib/x3d/costs";
import { db } from "@/lib/db";
import { engineClients, engineTasks } from "@/lib/db/schema";
import { EngineError } from "../engine-error";
import type { UploadedFile } from "../validate/form";
import { keepInput, newTaskId, removeTaskFiles, type InputSource } from "./store";

export interface NewTask {
  clientId: string;
  kind: TaskKind;
  /** Serializable job options (no paths). */
  options: Record<string, unknown>;
  /** Named inputs: uploaded files are moved into the task folder, URLs are kept for later. */
  inputs: Record<string, { file: UploadedFile; name: string } | { url: string } | undefined>;
  /** Several images under one name (image-to-3D views). */
  inputLists?: Record<string, { key: string; file: UploadedFile; name: string }[]>;
  cost: number;
  callbackUrl?: string;
}

/**
 * Charges the client and records the task in one transaction, so a short balance stores
 * nothing and concurrent submissions can never take the balance below zero.
 */
export async function createTask(task: NewTask): Promise<string> {
  const id = newTaskId(task.kind);
  try {
    const inputs: Record<string, InputSource | { key: string; source: InputSource }[]> = {};
    for (const [role, input] of Object.entries(task.inputs)) {
      if (!input) continue;
      inputs[role] = "url" in input ? { url: input.url } : await keepInput(id, input.file.path, input.name);
    }
    for (const [role, list] of Object.entries(task.inputLists ?? {})) {
      inputs[role] = [];
      for (const item of list) {
        (inputs[role] as { key: string; source: InputSource }[]).push({
          key: item.key,
          source: await keepInput(id, item.file.path, item.name),
        });
      }
    }
    const database = await db();
    await database.transaction(async (tx) => {
      const charged = await tx
        .update(engineClients)
        .set({ balance: sql`${engineClients.balance} - ${task.cost}` })
        .where(and(eq(engineClients.id, task.clientId), gte(engineClients.balance, task.cost)))
        .returning({ balance: engineClients.balance });
      if (charged.length === 0) {
        const [row] = await tx.select({ balance: engineClients.balance }).from(engineClients).where(eq(engineClients.id, task.clientId));
        throw new EngineError(30010000, `this task costs ${task.cost} credits and the balance is ${row?.balance ?? 0}`);
      }
      await tx.insert(engineTasks).values({
        id,
        clientId: task.clientId,
        kind: task.kind,
        state: "created",
        options: task.options,
        inputs,
        cost: task.cost,
        callbackUrl: task.callbackUrl ?? null,
      });
    });
  } catch (error) {
    await removeTaskFiles(id);
    throw error;
  }
  // The inputs are in place: the task waits for a slot. A row left `created` (this request
  // died here) is failed and refunded after a minute (abandonUnanswered); if that already
  // happened, the client gets the id of a failed, refunded task.
  await (
    await db()
  )
    .update(engineTasks)
    .set({ state: "queueing" })
    .where(and(eq(engineTasks.id, id), eq(engineTasks.state, "created")));
  return id;
}
