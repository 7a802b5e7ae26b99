import { after } from "next/server";
import { taskForCallback } from "@/lib/tasks/callback";
import { refreshTask } from "@/lib/tasks/refresh";

/**
 * The service's callback for one task. The body is not trusted (anyone could post one): a
 * callback only makes the studio ask the service itself, so repeats are harmless. We answer
 * at once and refresh afterwards, since copying a large result must not hold the service's
 * request open (it would retry on a timeout). No Origin check (lib/http/same-origin): the
 * caller is the service, a machine that sends none; the task's secret in the path is the
 * authentication, and no cookie is read.
 */
export async function POST(_request: Request, { params }: { params: Promise<{ id: string; secret: string }> }) {
  const { id, secret } = await params;
  const task = await taskForCallback(id, secret);
  if (!task) return new Response("Not Found", { status: 404 });
  // No throttle: the service says something changed, so the next look should be a fresh one.
  after(() => refreshTask(task.id, { minIntervalMs: 0 }).catch((error: unknown) => console.error(`[studio] callback refresh of ${task.id}:`, error)));
  return Response.json({ received: true });
}
