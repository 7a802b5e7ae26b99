import { currentUser } from "@/lib/accounts";
import { findUserTask } from "@/lib/tasks/read/queries";
import { isTaskFile, serveTaskFile } from "@/lib/tasks/model/results";

/** The owner's stored result or cover; `?download=1` makes it an attachment. */
export async function GET(request: Request, { params }: { params: Promise<{ taskId: string; file: string }> }) {
  const { taskId, file } = await params;
  const user = await currentUser();
  if (!user || !isTaskFile(file)) return new Response("Not Found", { status: 404 });
  const task = await findUserTask(user.id, taskId);
  if (!task) return new Response("Not Found", { status: 404 });
  const download = new URL(request.url).searchParams.has("download");
  // Stored files never change once written.
  return serveTaskFile(request, task, file, { download, cacheControl: "private, max-age=86400, immutable" });
}

/** Headers only: `serveTaskFile` sends no body for a HEAD. */
export const HEAD = GET;
