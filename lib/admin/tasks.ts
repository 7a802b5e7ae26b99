import "server-only";
import { desc, eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { studioTasks, users } from "@/lib/db/schema";

/** The newest tasks of every account, with their owner, for the admin page. */
export async function recentTasks(limit = 50) {
  return (await db())
    .select({
      id: studioTasks.id,
      kind: studioTasks.kind,
      state: studioTasks.state,
      cost: studioTasks.cost,
      createdAt: studioTasks.createdAt,
      owner: users.email,
    })
    .from(studioTasks)
    .innerJoin(users, eq(users.id, studioTasks.userId))
    .orderBy(desc(studioTasks.createdAt), desc(studioTasks.id))
    .limit(limit);
}
