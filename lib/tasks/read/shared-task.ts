import "server-only";
/** Share links as read: the task behind a token, the owner's live link, what may be shared. */
import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { shares, studioTasks, type StudioTask } from "@/lib/db/schema";

/** 32 random bytes, base64url: 43 characters nobody can guess. */
export const newShareToken = () => crypto.randomBytes(32).toString("base64url");
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const sharePath = (token: string) => `/share/${token}`;

/** Only finished tasks whose result the studio keeps can be shared: the link must work forever. */
export const isShareable = (task: Pick<StudioTask, "state" | "resultFile">) => task.state === "success" && task.resultFile !== null;

/** The task's live share link, if the owner made one and has not revoked it. */
export async function activeShare(userId: string, taskId: string): Promise<string | null> {
  const [row] = await (
    await db()
  )
    .select({ token: shares.token })
    .from(shares)
    .where(and(eq(shares.taskId, taskId), eq(shares.userId, userId), eq(shares.revoked, false)))
    .orderBy(desc(shares.createdAt))
    .limit(1);
  return row?.token ?? null;
}

/** The task a live share token points to; null for unknown, malformed or revoked tokens. */
export async function findSharedTask(token: string): Promise<StudioTask | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [row] = await (
    await db()
  )
    .select({ task: studioTasks })
    .from(shares)
    .innerJoin(studioTasks, and(eq(shares.taskId, studioTasks.id), eq(shares.userId, studioTasks.userId)))
    .where(and(eq(shares.token, token), eq(shares.revoked, false)))
    .limit(1);
  return row && isShareable(row.task) ? row.task : null;
}
