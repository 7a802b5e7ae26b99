import { after } from "next/server";
import { adoptFromCallback, taskForCallback } from "@/lib/tasks/lifecycle/callback";
import { log } from "@/lib/log";
import { refreshTask } from "@/lib/tasks/lifecycle/refresh";

/** A callback body is the query endpoint's envelope: a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The service's callback for one task. The body is not trusted for the task's state: a
 * callback only makes the studio ask the service itself, so repeats are harmless. Only a task
 * whose create answer was lost takes its service id from it (lib/tasks/lifecycle/callback). We answer
 * at once and refresh afterwards, since copying a large result must not hold the service's
 * request open (it would retry on a timeout). No Origin check (lib/http/same-origin): the
 * caller is the service, a machine that sends none; the task's secret in the path is the
 * authentication, and no cookie is read.
 */
export async function POST(request: Request, { params }: { params: Promise<{ id: string; secret: string }> }) {
  const { id, secret } = await params;
  const found = await taskForCallback(id, secret);
  if (!found) return new Response("Not Found", { status: 404 });
  const task = found.state === "checking" ? await adoptFromCallback(found, await readJson(request)) : found;
  // No throttle: the service says something changed, so the next look should be a fresh one.
  after(() =>
    refreshTask(task.id, { minIntervalMs: 0 }).catch((error: unknown) =>
      log.error({ err: error }, `[studio] callback refresh of ${task.id} failed`),
    ),
  );
  return Response.json({ received: true });
}

/** The body as JSON, or undefined when it is not JSON or longer than a callback can be. */
async function readJson(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return undefined;
  try {
    const text = await request.text();
    return text.length > MAX_BODY_BYTES ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
