import { findSharedTask } from "@/lib/tasks/share";
import { isTaskFile, serveTaskFile } from "@/lib/tasks/results";

/** A shared task's result or cover, for anyone holding a live share token. */
export async function GET(request: Request, { params }: { params: Promise<{ token: string; file: string }> }) {
  const { token, file } = await params;
  if (!isTaskFile(file)) return new Response("Not Found", { status: 404 });
  const task = await findSharedTask(token);
  if (!task) return new Response("Not Found", { status: 404 });
  const download = new URL(request.url).searchParams.has("download");
  // Not cached: a revoked link must stop working at once.
  return serveTaskFile(task, file, { download, cacheControl: "private, no-store" });
}
