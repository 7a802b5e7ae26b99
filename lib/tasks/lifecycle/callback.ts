import "server-only";
import crypto from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { db } from "@/lib/db";
import { refundTask } from "@/lib/credits/ledger";
import { studioTasks, type StudioTask } from "@/lib/db/schema";
import { FAILURE_CODES } from "./refresh";
import { rememberTask } from "./task-cache";

/** The stored form of a callback secret: only its hash is kept. */
export const hashSecret = (secret: string) => crypto.createHash("sha256").update(secret).digest("hex");

/** Longer path segments are not secrets we issued; refusing them early bounds the hashing. */
const MAX_SECRET_LENGTH = 256;

/** Whether `secret` hashes to `storedHash` (hex sha256), compared in constant time. */
export function secretMatches(secret: string, storedHash: string | null): boolean {
  if (!storedHash || !secret || secret.length > MAX_SECRET_LENGTH || !/^[0-9a-f]{64}$/.test(storedHash)) return false;
  return crypto.timingSafeEqual(Buffer.from(hashSecret(secret), "hex"), Buffer.from(storedHash, "hex"));
}

/** The task a callback URL names, when its secret is the one issued for it; else null. */
export async function taskForCallback(id: string, secret: string): Promise<StudioTask | null> {
  const [task] = await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id)).limit(1);
  return task && secretMatches(secret, task.callbackSecretHash) ? task : null;
}

/** The parts of a callback body (the query endpoint's envelope) that adopting a task reads. */
function callbackFacts(body: unknown): { taskId?: string; failedCode?: number } {
  if (typeof body !== "object" || body === null) return {};
  const { code, data } = body as { code?: unknown; data?: unknown };
  if (typeof code === "number" && FAILURE_CODES.includes(code)) return { failedCode: code };
  const taskId = typeof data === "object" && data !== null ? (data as { task_id?: unknown }).task_id : undefined;
  return code === 200 && typeof taskId === "string" && taskId.length > 0 && taskId.length <= 128 ? { taskId } : {};
}

/**
 * A callback for a task whose create answer was lost ("checking", no service id): the URL's
 * secret shows the service sent it, so its body's task id is taken as the task's, and the
 * refresh that follows confirms it by asking the service with our own credentials (an id the
 * service does not know settles the task as failed after three answers). A failure callback
 * settles the task as failed with the service's code (the service refunds failed tasks).
 */
export async function adoptFromCallback(task: StudioTask, body: unknown): Promise<StudioTask> {
  if (task.state !== "checking" || task.serviceTaskId !== null) return task;
  const facts = callbackFacts(body);
  const now = new Date();
  const update = facts.taskId
    ? { serviceTaskId: facts.taskId, state: "created" as const, stateTimes: { ...task.stateTimes, created: now.toISOString() } }
    : facts.failedCode !== undefined
      ? { state: "failed" as const, errorCode: facts.failedCode, stateTimes: { ...task.stateTimes, failed: now.toISOString() } }
      : null;
  if (!update) return task;
  const [row] = await (
    await db()
  ).transaction(async (tx) => {
    const rows = await tx
      .update(studioTasks)
      .set({ ...update, updatedAt: now })
      .where(and(eq(studioTasks.id, task.id), eq(studioTasks.state, "checking"), isNull(studioTasks.serviceTaskId)))
      .returning();
    if (update.state === "failed" && rows.length) await refundTask(tx, task.id);
    return rows;
  });
  return row ? rememberTask(row) : task;
}
