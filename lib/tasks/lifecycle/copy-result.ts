import "server-only";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { and, eq, isNull } from "drizzle-orm";
import { db } from "@/lib/db";
import { studioTasks, type StudioTask } from "@/lib/db/schema";
import { localFileFor } from "@/lib/files/local-files";
import { fileStore } from "@/lib/files/store";
import { newId, resultFile, studioKey, studioScratch } from "@/lib/storage";
import type { TaskResult } from "@/lib/x3d/schemas";
import { storedExtension, type ServiceFile } from "../model/results";
import { afterLostWrite } from "./delete-task";
import { loadTask, rememberTask } from "./task-cache";

/** A service download may take this long, body included, before it is abandoned (and retried later). */
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
/** Fresh links asked for per file in one copy, when the service answers that a link expired. */
const MAX_RELINKS = 2;

/** The service refused a link as expired or invalid (HTTP 401/403/410): a new query signs a fresh one. */
export class ExpiredLinkError extends Error {
  constructor(which: ServiceFile, status: number) {
    super(`the ${which} link was refused (HTTP ${status})`);
    this.name = "ExpiredLinkError";
  }
}

export interface CopyDeps {
  fetch: typeof fetch;
  /** Queries the service again, for fresh links. */
  requery: () => Promise<TaskResult>;
  now: () => Date;
  /** Aborts the copy (the server is stopping); what was not kept is copied by a later refresh. */
  signal?: AbortSignal;
}

/** The order files are copied in: the small cover first, so a long result copy cannot outlast its link. */
const COPY_ORDER = ["cover", "result"] as const satisfies readonly ServiceFile[];
const COLUMN = { cover: "coverFile", result: "resultFile" } as const;
const linkOf = (result: TaskResult, which: ServiceFile) => (which === "cover" ? result.cover_url : result.url) || null;

/**
 * Copies a succeeded task's cover and result into studio storage, each kept as soon as it is
 * copied, so a retry fetches only what is missing. A link refused as expired is replaced by
 * querying the task again. Returns the task row as it stands after the copy (or as it was,
 * when the task was deleted meanwhile: what was copied is removed then).
 */
export async function copyResultFiles(task: StudioTask, result: TaskResult, deps: CopyDeps): Promise<StudioTask> {
  let links = result;
  let current = task;
  for (const which of COPY_ORDER) {
    if (current[COLUMN[which]] !== null) continue;
    for (let relinks = 0; ; relinks++) {
      const url = linkOf(links, which);
      if (!url) {
        if (which === "cover") break; // a result without a cover is still a result
        throw new Error("the service answered success without a result link");
      }
      try {
        current = await keepFile(current, which, await storeServiceFile(url, task.id, which, deps.fetch, deps.signal), deps.now());
        break;
      } catch (error) {
        // Deleted meanwhile (its folder went under the copy): nothing failed that anyone will see.
        if (!deps.signal?.aborted && !(await loadTask(task.id))) return afterLostWrite(task);
        if (!(error instanceof ExpiredLinkError) || relinks >= MAX_RELINKS) throw error;
        links = await deps.requery();
      }
    }
  }
  return current;
}

/** Records one copied file; a concurrent copier that recorded it first wins. */
async function keepFile(task: StudioTask, which: ServiceFile, relative: string, at: Date): Promise<StudioTask> {
  const column = studioTasks[COLUMN[which]];
  const [row] = await (
    await db()
  )
    .update(studioTasks)
    .set(which === "cover" ? { coverFile: relative, updatedAt: at } : { resultFile: relative, updatedAt: at })
    .where(and(eq(studioTasks.id, task.id), isNull(column)))
    .returning();
  return row ? rememberTask(row) : afterLostWrite(task);
}

/**
 * Puts one of a task's service files into studio storage as `<which>.<ext>` and returns its
 * relative path. A file of the embedded service in this process is copied inside the store (a
 * hard link on disk, a server-side copy in a bucket); anything else is streamed over HTTP into a
 * scratch file, then stored. Either way a reader never sees half a file.
 */
export async function storeServiceFile(
  url: string,
  taskId: string,
  which: ServiceFile,
  doFetch: typeof fetch,
  signal?: AbortSignal,
): Promise<string> {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`refusing to fetch ${which} from ${parsed.protocol}`);
  const relative = resultFile(taskId, `${which}.${storedExtension(url)}`);
  const local = await localFileFor(parsed);
  if (local && (await fileStore().copy(local, studioKey(relative)))) return relative;
  const dir = studioScratch("downloads");
  await fsp.mkdir(dir, { recursive: true });
  const partial = path.join(dir, `${taskId}.${which}.${newId(6)}.part`);
  try {
    await download(parsed, partial, which, doFetch, signal);
    await fileStore().putFile(studioKey(relative), partial);
  } finally {
    await fsp.rm(partial, { force: true });
  }
  return relative;
}

async function download(url: URL, to: string, which: ServiceFile, doFetch: typeof fetch, signal?: AbortSignal): Promise<void> {
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  const response = await doFetch(url, { signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
  if ([401, 403, 410].includes(response.status)) {
    await response.body?.cancel();
    throw new ExpiredLinkError(which, response.status);
  }
  if (!response.ok || !response.body) throw new Error(`fetching the ${which}: HTTP ${response.status}`);
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), fs.createWriteStream(to));
}
