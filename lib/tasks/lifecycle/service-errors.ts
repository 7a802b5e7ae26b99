import "server-only";
import { log } from "@/lib/log";
import { desc, lt } from "drizzle-orm";
import { db } from "@/lib/db";
import { serviceErrors } from "@/lib/db/schema";
import { X3dError } from "@/lib/x3d/client";

/** What the studio was doing: creating a task, asking about one, copying its result, reading the balance; "task": a task the service failed. */
export type ServiceOperation = "create" | "query" | "copy" | "balance" | "task";

/** How many errors are kept: the admin page shows the newest; older ones are dropped as new ones come. */
const KEPT = 500;

/**
 * Notes an error the x3d service gave the studio, for the admin page: the service's code and
 * sentence when it answered, else what went wrong on the way. Never throws: a failure to note
 * an error must not change what the user is told.
 */
export async function recordServiceError(operation: ServiceOperation, error: unknown, taskId?: string): Promise<void> {
  // The studio's own check of a request before sending it is not the service's error.
  if (error instanceof X3dError && error.kind === "input") return;
  try {
    const code = error instanceof X3dError && error.kind === "service" ? error.code : null;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const database = await db();
    const [row] = await database
      .insert(serviceErrors)
      .values({ operation, code, message, taskId: taskId ?? null })
      .returning({ id: serviceErrors.id });
    if (row && row.id % 50 === 0) await database.delete(serviceErrors).where(lt(serviceErrors.id, row.id - KEPT));
  } catch (noted) {
    log.error({ err: noted }, "[studio] could not note a service error");
  }
}

/** The newest service errors, newest first. */
export async function recentServiceErrors(limit = 20) {
  return (await db()).select().from(serviceErrors).orderBy(desc(serviceErrors.id)).limit(limit);
}
