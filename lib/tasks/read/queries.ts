import "server-only";
import { and, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import { db } from "@/lib/db";
import { studioTasks, type StudioTask } from "@/lib/db/schema";
import { TASK_KINDS, TASK_STATES } from "../model/task-types";

export const HISTORY_PAGE_SIZE = 20;

/**
 * The condition of every look-up of a user's tasks: theirs, and meeting `conditions`. Someone
 * else's task is then the same as one that does not exist.
 */
export function ownedBy(userId: string, ...conditions: SQL[]): SQL | undefined {
  return and(eq(studioTasks.userId, userId), ...conditions);
}

/** The owner's task, or null (also for other users' tasks: callers answer 404 either way). */
export async function findUserTask(userId: string, id: string): Promise<StudioTask | null> {
  const [task] = await (
    await db()
  )
    .select()
    .from(studioTasks)
    .where(ownedBy(userId, eq(studioTasks.id, id)))
    .limit(1);
  return task ?? null;
}

const HistoryFilterSchema = z.object({
  // A bad value in the address bar means "no filter", not an error page.
  kind: z.enum(TASK_KINDS).optional().catch(undefined),
  state: z.enum(TASK_STATES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});
export type HistoryFilter = z.infer<typeof HistoryFilterSchema>;

/** The history filter from a page's search params (first value of each). */
export function parseHistoryFilter(params: Record<string, string | string[] | undefined>): HistoryFilter {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return HistoryFilterSchema.parse({ kind: first(params.kind), state: first(params.state), page: first(params.page) });
}

/** One page of the user's tasks (`pageSize` a page), newest first, and whether another page follows. */
export async function listUserTasks(
  userId: string,
  filter: HistoryFilter,
  pageSize = HISTORY_PAGE_SIZE,
): Promise<{ tasks: StudioTask[]; hasNext: boolean }> {
  const conditions: SQL[] = [];
  if (filter.kind) conditions.push(eq(studioTasks.kind, filter.kind));
  if (filter.state) conditions.push(eq(studioTasks.state, filter.state));
  const rows = await (
    await db()
  )
    .select()
    .from(studioTasks)
    .where(ownedBy(userId, ...conditions))
    .orderBy(desc(studioTasks.createdAt), desc(studioTasks.id))
    .limit(pageSize + 1)
    .offset((filter.page - 1) * pageSize);
  return { tasks: rows.slice(0, pageSize), hasNext: rows.length > pageSize };
}
