import { findSharedTask } from "@/lib/tasks/read/shared-task";
import { SHARE_MAX_AGE_SECONDS } from "@/lib/tasks/model/results";
import { serveInputImage } from "@/lib/tasks/read/shown-inputs";

/** The image of a shared task's input number `index`, for anyone holding a live share token. */
export async function GET(request: Request, { params }: { params: Promise<{ token: string; index: string }> }) {
  const { token, index } = await params;
  const task = await findSharedTask(token);
  if (!task) return new Response("Not Found", { status: 404 });
  // Revalidated against the live token like the result: see SHARE_MAX_AGE_SECONDS.
  return serveInputImage(request, task, index, { download: false, cacheControl: `private, max-age=${SHARE_MAX_AGE_SECONDS}` });
}

/** Headers only: `serveStoredFile` sends no body for a HEAD. */
export const HEAD = GET;
