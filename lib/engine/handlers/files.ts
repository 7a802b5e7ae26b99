import "server-only";
import { contentTypeOf } from "@/lib/content-types";
import { contentDisposition, serveFile } from "@/lib/files/serve-file";
import { verifyFileUrl } from "../results";
import { fileStore } from "@/lib/files/store";
import { isTaskId, taskFileKey } from "../tasks/store";
import { findTask } from "../tasks/transitions";
import { engineOff } from "./common";

/** Any page may fetch a signed link (the live service allows it too), errors included. */
const CORS = { "Access-Control-Allow-Origin": "*" };

/**
 * GET/HEAD files/<task>/<file>?auth_key=&t=: a result or cover, without auth, while the
 * signature holds; 410 once housekeeping removed the task's files.
 */
export async function handleFile(request: Request, taskId: string, file: string): Promise<Response> {
  const off = engineOff();
  if (off) return off;
  const url = new URL(request.url);
  if (!/^(result|cover)\.[a-z0-9]+$/.test(file)) return new Response("Not Found", { status: 404 });
  if (!(await verifyFileUrl(taskId, file, url.searchParams.get("t"), url.searchParams.get("auth_key")))) {
    return new Response("This link has expired or is not valid.", { status: 403, headers: CORS });
  }
  if (!isTaskId(taskId)) return new Response("Not Found", { status: 404 });
  const ext = file.slice(file.lastIndexOf(".") + 1);
  const served = await serveFile(request, await fileStore().open(taskFileKey(taskId, file)), {
    contentType: contentTypeOf(ext),
    // A link lives for X3D_ENGINE_URL_TTL; a browser may reuse what it fetched for 5 minutes.
    cacheControl: "private, max-age=300",
    disposition: file.startsWith("result") ? contentDisposition("attachment", `${taskId}.${ext}`) : undefined,
    extraHeaders: CORS,
  });
  if (served.status !== 404) return served;
  // A link signed before housekeeping removed the files (it outlives them by up to its TTL):
  // say they are gone for good, unlike a link that expired and a fresh query replaces.
  const task = await findTask(taskId);
  if (!task?.filesExpiredAt) return served;
  return new Response("This task's files were removed when its retention period ended (X3D_ENGINE_RETENTION_HOURS).", {
    status: 410,
    headers: CORS,
  });
}
