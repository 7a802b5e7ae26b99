import "server-only";
/** Share links as their owner makes and revokes them (lib/tasks/read/shared-task.ts reads them). */
import { and, eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { shares } from "@/lib/db/schema";
import { findUserTask } from "../read/queries";
import { activeShare, isShareable, newShareToken } from "../read/shared-task";

/** What the share server actions answer; `path` is `/share/<token>`. */
export type ShareActionResult = { status: "ok"; path: string | null } | { status: "error"; message: string };

/** The owner's share link for a task (the live one, or a new one); null when the task is not theirs or not shareable. */
export async function createShare(userId: string, taskId: string): Promise<string | null> {
  const task = await findUserTask(userId, taskId);
  if (!task || !isShareable(task)) return null;
  const existing = await activeShare(userId, taskId);
  if (existing) return existing;
  const token = newShareToken();
  await (await db()).insert(shares).values({ token, taskId, userId });
  return token;
}

/** Revokes every live link to the owner's task; false when the task is not theirs. */
export async function revokeShares(userId: string, taskId: string): Promise<boolean> {
  if (!(await findUserTask(userId, taskId))) return false;
  await (
    await db()
  )
    .update(shares)
    .set({ revoked: true, revokedAt: new Date() })
    .where(and(eq(shares.taskId, taskId), eq(shares.userId, userId), eq(shares.revoked, false)));
  return true;
}
