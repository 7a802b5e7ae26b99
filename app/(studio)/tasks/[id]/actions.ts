"use server";

import { z } from "zod";
import { currentUser } from "@/lib/accounts";
import { sharePath } from "@/lib/tasks/read/shared-task";
import { createShare, revokeShares, type ShareActionResult } from "@/lib/tasks/lifecycle/sharing";

const TaskIdSchema = z.string().min(1).max(100);
const NOT_FOUND: ShareActionResult = { status: "error", message: "No such task." };

/** Makes (or returns) the read-only share link of one of the user's finished tasks. */
export async function createShareAction(taskId: unknown): Promise<ShareActionResult> {
  const user = await currentUser();
  if (!user) return { status: "error", message: "Sign in first." };
  const id = TaskIdSchema.safeParse(taskId);
  if (!id.success) return NOT_FOUND;
  const token = await createShare(user.id, id.data);
  // Other users' tasks and unfinished ones get the same answer: nothing to share here.
  return token ? { status: "ok", path: sharePath(token) } : { status: "error", message: "Only your finished tasks can be shared." };
}

/** Revokes the share link of one of the user's tasks: the link answers 404 from now on. */
export async function revokeShareAction(taskId: unknown): Promise<ShareActionResult> {
  const user = await currentUser();
  if (!user) return { status: "error", message: "Sign in first." };
  const id = TaskIdSchema.safeParse(taskId);
  if (!id.success) return NOT_FOUND;
  return (await revokeShares(user.id, id.data)) ? { status: "ok", path: null } : NOT_FOUND;
}
