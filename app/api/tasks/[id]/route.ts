import { after } from "next/server";
import { metrics } from "@/lib/metrics/registry";
import { currentUser, isAdmin } from "@/lib/accounts";
import { refuseCrossSite } from "@/lib/http/same-origin";
import { deleteTask } from "@/lib/tasks/lifecycle/delete-task";
import { pollTask } from "@/lib/tasks/lifecycle/poll";
import { taskView } from "@/lib/tasks/model/task-view";
import { jsonWithEtag } from "@/lib/tasks/read/task-etag";

const noSuchTask = () => Response.json({ error: "No such task." }, { status: 404 });

/**
 * The owner's task as the task page polls it. Answers at once from what this process knows
 * (an unchanged task costs no database work and answers 304); a refresh from the service,
 * at most one per task every few seconds, runs in the background (lib/tasks/lifecycle/poll).
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  metrics().taskPolls.inc({ face: "studio" });
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const { id } = await params;
  const answer = await pollTask(id, user.id, { background: after });
  if (!answer) return noSuchTask();
  return jsonWithEtag(request, taskView(answer.task, answer.problem));
}

/**
 * Deletes the user's task (an admin's: anyone's) with its files and share links: 204, or 404
 * for a task that does not exist or is someone else's. The charge stays (lib/tasks/lifecycle/delete-task).
 */
export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const refused = refuseCrossSite(request);
  if (refused) return refused;
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const { id } = await params;
  const deleted = await deleteTask({ id: user.id, admin: await isAdmin(user) }, id);
  return deleted ? new Response(null, { status: 204 }) : noSuchTask();
}
