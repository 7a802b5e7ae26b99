import { after } from "next/server";
import { metrics } from "@/lib/metrics/registry";
import { currentUser } from "@/lib/session";
import { pollTask } from "@/lib/tasks/poll";
import { taskView } from "@/lib/tasks/queries";
import { jsonWithEtag } from "@/lib/tasks/task-etag";

/**
 * The owner's task as the task page polls it. Answers at once from what this process knows
 * (an unchanged task costs no database work and answers 304); a refresh from the service,
 * at most one per task every few seconds, runs in the background (lib/tasks/poll).
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  metrics().taskPolls.inc({ face: "studio" });
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const { id } = await params;
  const answer = await pollTask(id, user.id, { background: after });
  if (!answer) return Response.json({ error: "No such task." }, { status: 404 });
  return jsonWithEtag(request, taskView(answer.task, answer.problem));
}
