import { findSharedTask } from "@/lib/tasks/read/shared-task";
import { isTaskFile, serveTaskFile, SHARE_MAX_AGE_SECONDS } from "@/lib/tasks/model/results";

/** A shared task's result or cover, for anyone holding a live share token. */
export async function GET(request: Request, { params }: { params: Promise<{ token: string; file: string }> }) {
  const { token, file } = await params;
  if (!isTaskFile(file)) return new Response("Not Found", { status: 404 });
  const task = await findSharedTask(token);
  if (!task) return new Response("Not Found", { status: 404 });
  const download = new URL(request.url).searchParams.has("download");
  // Briefly cacheable, then revalidated against the live token: see SHARE_MAX_AGE_SECONDS.
  return serveTaskFile(request, task, file, { download, cacheControl: `private, max-age=${SHARE_MAX_AGE_SECONDS}` });
}

/** Headers only: `serveTaskFile` sends no body for a HEAD. */
export const HEAD = GET;
