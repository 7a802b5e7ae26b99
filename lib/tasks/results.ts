import "server-only";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { StudioTask } from "@/lib/db/schema";
import { newId, resultFile, storedPath } from "@/lib/storage";
import { extensionOf } from "@/lib/x3d/schemas";
import { CONTENT_TYPES, contentTypeOf } from "@/lib/content-types";
import { fileBody } from "@/lib/storage/file-body";

/** The two files the studio keeps per task. */
export type TaskFile = "result" | "cover";
export const isTaskFile = (value: string): value is TaskFile => value === "result" || value === "cover";

/** A service download may take this long, body included, before it is abandoned (and retried later). */
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/** The extension a stored file gets: the service URL's, when it is one we know. */
export function storedExtension(url: string): string {
  const ext = extensionOf(new URL(url).pathname);
  return ext && Object.hasOwn(CONTENT_TYPES, ext) ? ext : "bin";
}

/** The format of a stored file (its extension), e.g. "glb"; null when nothing is stored. */
export function storedFormat(relative: string | null): string | null {
  return relative ? (extensionOf(relative) ?? null) : null;
}

/**
 * Streams one of a task's service files into studio storage as `<which>.<ext>` and returns its
 * relative path. It lands under a temporary name first, so a reader never sees half a file.
 */
export async function storeFromUrl(url: string, taskId: string, which: TaskFile, doFetch: typeof fetch = fetch): Promise<string> {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`refusing to fetch ${which} from ${parsed.protocol}`);
  const relative = resultFile(taskId, `${which}.${storedExtension(url)}`);
  const full = storedPath(relative);
  await fsp.mkdir(path.dirname(full), { recursive: true });
  const partial = `${full}.${newId(6)}.part`;
  const response = await doFetch(parsed, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!response.ok || !response.body) throw new Error(`fetching the ${which}: HTTP ${response.status}`);
  try {
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), fs.createWriteStream(partial));
    await fsp.rename(partial, full);
  } catch (error) {
    await fsp.rm(partial, { force: true });
    throw error;
  }
  return relative;
}

/** A download name that says what the file is: `<kind>-<yyyy-mm-dd>[-cover].<ext>`. */
export function downloadName(task: Pick<StudioTask, "kind" | "createdAt">, which: TaskFile, ext: string): string {
  const date = task.createdAt.toISOString().slice(0, 10);
  return `${task.kind}-${date}${which === "cover" ? "-cover" : ""}.${ext}`;
}

export interface ServeOptions {
  /** Sent as an attachment (a download) rather than inline. */
  download: boolean;
  cacheControl: string;
}

/** Streams a task's stored result or cover from disk; 404 when it is not stored. */
export async function serveTaskFile(task: StudioTask, which: TaskFile, options: ServeOptions): Promise<Response> {
  const relative = which === "result" ? task.resultFile : task.coverFile;
  if (!relative) return new Response("Not Found", { status: 404 });
  const full = storedPath(relative);
  const stat = await fsp.stat(full).catch(() => null);
  if (!stat?.isFile()) return new Response("Not Found", { status: 404 });
  const ext = storedFormat(relative) ?? "bin";
  const name = downloadName(task, which, ext);
  return new Response(await fileBody(full), {
    headers: {
      "Content-Type": contentTypeOf(ext),
      "Content-Length": String(stat.size),
      "Content-Disposition": `${options.download ? "attachment" : "inline"}; filename="${name}"`,
      "Cache-Control": options.cacheControl,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
