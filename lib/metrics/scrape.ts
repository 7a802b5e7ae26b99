import "server-only";
import { count } from "drizzle-orm";
import { db } from "@/lib/db";
import { engineTasks, studioTasks } from "@/lib/db/schema";
import { metrics } from "./registry";

/** The Prometheus text of every metric, task counts read from the database now. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const m = metrics();
  const database = await db();
  const [studio, engine] = await Promise.all([
    database
      .select({ kind: studioTasks.kind, state: studioTasks.state, n: count() })
      .from(studioTasks)
      .groupBy(studioTasks.kind, studioTasks.state),
    database
      .select({ kind: engineTasks.kind, state: engineTasks.state, n: count() })
      .from(engineTasks)
      .groupBy(engineTasks.kind, engineTasks.state),
  ]);
  // Reset first: a state no task is in any more drops out rather than keeping its last count.
  m.studioTasks.reset();
  for (const row of studio) m.studioTasks.set({ kind: row.kind, state: row.state }, row.n);
  m.engineTasks.reset();
  for (const row of engine) m.engineTasks.set({ kind: row.kind, state: row.state }, row.n);
  for (const state of ["queueing", "processing"] as const)
    m.queueDepth.set(
      { state },
      engine.filter((row) => row.state === state).reduce((sum, row) => sum + row.n, 0),
    );
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
