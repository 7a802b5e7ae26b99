import { currentUser } from "@/lib/accounts";
import { findUserTask } from "@/lib/tasks/read/queries";
import { serveInputImage } from "@/lib/tasks/read/shown-inputs";

/** The image of the owner's task input number `index` (an uploaded image, or an earlier result's cover). */
export async function GET(request: Request, { params }: { params: Promise<{ taskId: string; index: string }> }) {
  const { taskId, index } = await params;
  const user = await currentUser();
  if (!user) return new Response("Not Found", { status: 404 });
  const task = await findUserTask(user.id, taskId);
  if (!task) return new Response("Not Found", { status: 404 });
  return serveInputImage(request, task, index, { download: false, cacheControl: "private, max-age=86400" });
}

/** Headers only: `serveStoredFile` sends no body for a HEAD. */
export const HEAD = GET;
