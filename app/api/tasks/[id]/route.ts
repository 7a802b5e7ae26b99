import { after } from "next/server";
import { currentUser } from "@/lib/session";
import { findUserTask, taskView } from "@/lib/tasks/queries";
import { refreshTask, type RefreshOutcome } from "@/lib/tasks/refresh";

/** A poll waits this long for the refresh; a longer one (copying a large result) finishes in the background. */
const WAIT_FOR_REFRESH_MS = 4_000;

/** The owner's task as the task page polls it; asks the service at most every few seconds (lib/tasks/refresh). */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const { id } = await params;
  const task = await findUserTask(user.id, id);
  if (!task) return Response.json({ error: "No such task." }, { status: 404 });
  const refresh = refreshTask(task.id);
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<"later">((resolve) => (timer = setTimeout(resolve, WAIT_FOR_REFRESH_MS, "later")));
  const outcome: RefreshOutcome | null | "later" = await Promise.race([refresh, waited]).finally(() => clearTimeout(timer));
  if (outcome === "later") {
    after(refresh.catch((error: unknown) => console.error(`[studio] refreshing task ${task.id}:`, error)));
    return Response.json(taskView((await findUserTask(user.id, id)) ?? task), { headers: { "Cache-Control": "no-store" } });
  }
  return Response.json(taskView(outcome?.task ?? task, outcome?.problem), { headers: { "Cache-Control": "no-store" } });
}
