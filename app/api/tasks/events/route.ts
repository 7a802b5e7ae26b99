import { metrics } from "@/lib/metrics/registry";
import { currentUser } from "@/lib/accounts";
import { shutdownSignal } from "@/lib/shutdown";
import { EVENT_STREAM_HEADERS, taskEventStream } from "@/lib/tasks/lifecycle/live/event-stream";
import { subscribeTaskChanges } from "@/lib/tasks/lifecycle/live/subscribe";

// A stream per request, never cached or prerendered; node: the bus and PostgreSQL's LISTEN live in this process.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The signed-in user's task changes as server-sent events (`event: task`, data {id, state,
 * settled}), for the task pages, which then fetch the task itself from /api/tasks/<id>. A GET
 * that reads and changes nothing: no Origin check, as for the other GET routes.
 */
export async function GET(request: Request) {
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const open = metrics().taskEventStreams;
  open.inc();
  const body = taskEventStream({
    subscribe: (listener) => subscribeTaskChanges(user.id, listener),
    signal: request.signal,
    stop: shutdownSignal(),
    onClose: () => open.dec(),
  });
  return new Response(body, { headers: EVENT_STREAM_HEADERS });
}
