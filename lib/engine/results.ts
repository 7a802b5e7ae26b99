import "server-only";
import type { EngineTask } from "@/lib/db/schema";
import { checkSignedPath, signPath } from "./auth";
import { engineConfig } from "./config";
import { taskFileKey } from "./tasks/store";

const FILES_PREFIX = "/open-api/v1/files";

/** A link to one of a task's files that works without auth until it expires (X3D_ENGINE_URL_TTL). */
async function signedFileUrl(taskId: string, file: string): Promise<string> {
  const { publicOrigin, urlTtlSeconds } = engineConfig();
  const pathname = `${FILES_PREFIX}/${taskId}/${file}`;
  const t = Math.floor(Date.now() / 1000) + urlTtlSeconds;
  // Built from the configured origin, never the request's Host: clients send the live host name.
  return `${publicOrigin}${pathname}?auth_key=${await signPath(pathname, t)}&t=${t}`;
}

export async function verifyFileUrl(taskId: string, file: string, t: string | null, key: string | null): Promise<boolean> {
  const expires = Number(t);
  if (!key || !Number.isSafeInteger(expires)) return false;
  return checkSignedPath(`${FILES_PREFIX}/${taskId}/${file}`, expires, key);
}

const FILE_PATH = /^\/open-api\/v1\/files\/([a-z0-9]+_\d{8}_[0-9a-f]{24})\/((?:result|cover)\.[a-z0-9]+)$/;

/**
 * The store key of the file behind one of this service's own signed links, while the link is
 * valid; null for anything else (another origin, a bad or expired signature). Lets the studio in
 * the same process copy the file inside the store instead of downloading it from itself.
 */
export async function signedFilePath(url: URL): Promise<string | null> {
  if (url.origin !== engineConfig().publicOrigin) return null;
  const match = FILE_PATH.exec(url.pathname);
  if (!match) return null;
  const [, taskId, file] = match as unknown as [string, string, string];
  if (!(await verifyFileUrl(taskId, file, url.searchParams.get("t"), url.searchParams.get("auth_key")))) return null;
  return taskFileKey(taskId, file);
}

/** The code a failed task of this kind answers with (open-api.md section 7). */
export function failureCode(kind: EngineTask["kind"]): 50010001 | 5001001 {
  return kind === "image-to-3d" ? 50010001 : 5001001;
}

/** `data` of a query answer for a task that has not failed: all five fields, with fresh links on success. */
export async function taskResult(task: EngineTask): Promise<Record<string, string>> {
  const files = task.state === "success" && task.resultFile && task.coverFile ? { result: task.resultFile, cover: task.coverFile } : null;
  return {
    task_id: task.id,
    state: task.state,
    id: files ? `${task.id}_0` : "",
    cover_url: files ? await signedFileUrl(task.id, files.cover) : "",
    url: files ? await signedFileUrl(task.id, files.result) : "",
  };
}

/**
 * The body POSTed to callback_url: the matching query's answer. A failed task's answer has
 * an empty `data`, which would leave a receiver unable to tell which task failed; the
 * callback therefore carries `task_id` and `state` in `data` for failures (documented).
 */
export async function callbackBody(task: EngineTask): Promise<Record<string, unknown>> {
  if (task.state === "failed") {
    const code = failureCode(task.kind);
    return { code, data: { task_id: task.id, state: "failed" }, msg: "generate failed" };
  }
  return { code: 200, data: await taskResult(task), msg: "success" };
}
