import { after } from "next/server";
import { currentUser } from "@/lib/session";
import { taskView } from "@/lib/tasks/queries";
import { refreshTask, type RefreshOutcome } from "@/lib/tasks/refresh";
import { cachedTask } from "@/lib/tasks/task-cache";
import { jsonWithEtag } from "@/lib/tasks/task-etag";

/** A poll waits this long for the refresh; a longer one (copying a large result) finishes in the background. */
const WAIT_FOR_REFRESH_MS = 4_000;

/**
 * The owner's task as the task page polls it; asks the service at most every few seconds
 * (lib/tasks/refresh). An unchanged task costs no database work and answers 304.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const { id } = await params;
  const task = await cachedTask(id);
  if (!task || task.userId !== user.id) return Response.json({ error: "No such task." }, { status: 404 });
  const refresh = refreshTask(task.id);
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<"later">((resolve) => (timer = setTimeout(resolve, WAIT_FOR_REFRESH_MS, "later")));
  const outcome: RefreshOutcome | null | "later" = await Promise.race([refresh, waited]).finally(() => clearTimeout(timer));
  if (outcome === "later") {
    after(refresh.catch((error: unknown) => console.error(`[studio] refreshing task ${task.id}:`, error)));
    return jsonWithEtag(request, taskView((await cachedTask(id)) ?? task));
  }
  return jsonWithEtag(request, taskView(outcome?.task ?? task, outcome?.problem));
}
