import "server-only";
import type { StudioTask, StudioTaskKind } from "@/lib/db/schema";
import { fileStore } from "@/lib/files/store";
import { studioKey } from "@/lib/storage";
import { extensionOf } from "@/lib/x3d/schemas";
import { DEPTH_FORMATS, MESH_FORMATS, SEGMENTATION_FORMATS } from "@/lib/x3d/options";
import { CONTENT_TYPES, contentTypeOf } from "@/lib/content-types";
import { contentDisposition, serveFile } from "@/lib/files/serve-file";

/** The files the studio keeps per task: the service's two, and the viewer's copies of the result. */
const TASK_FILES = ["result", "cover", "display", "preview"] as const;
export type TaskFile = (typeof TASK_FILES)[number];
/** The two files copied from the service. */
export type ServiceFile = Extract<TaskFile, "result" | "cover">;
export const isTaskFile = (value: string): value is TaskFile => (TASK_FILES as readonly string[]).includes(value);

const COLUMNS = { result: "resultFile", cover: "coverFile", display: "displayFile", preview: "previewFile" } as const;

/** Where one of a task's files is stored, or null. */
export const taskFilePath = (task: StudioTask, which: TaskFile): string | null => task[COLUMNS[which]];

/** The extension a stored file gets: the service URL's, when it is one we know. */
export function storedExtension(url: string): string {
  const ext = extensionOf(new URL(url).pathname);
  return ext && Object.hasOwn(CONTENT_TYPES, ext) ? ext : "bin";
}

/** The format of a stored file (its extension), e.g. "glb"; null when nothing is stored. */
export function storedFormat(relative: string | null): string | null {
  return relative ? (extensionOf(relative) ?? null) : null;
}

/** A download name that says what the file is: `<kind>-<yyyy-mm-dd>[-cover|-display|-preview].<ext>`. */
export function downloadName(task: Pick<StudioTask, "kind" | "createdAt">, which: TaskFile, ext: string): string {
  const date = task.createdAt.toISOString().slice(0, 10);
  return `${task.kind}-${date}${which === "result" ? "" : `-${which}`}.${ext}`;
}

const FORMATS_BY_KIND: Record<StudioTaskKind, Record<number, string>> = {
  "image-to-3d": MESH_FORMATS,
  texture: MESH_FORMATS,
  split: MESH_FORMATS,
  depth: DEPTH_FORMATS,
  segmentation: SEGMENTATION_FORMATS,
};

/** The result type of a finished task: its stored file's extension, else the format it asked for. */
export function resultType(task: Pick<StudioTask, "kind" | "resultFile" | "options">): string | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(task.resultFile ?? "")?.[1]?.toLowerCase();
  if (ext) return ext;
  const format = Number(task.options.format);
  return FORMATS_BY_KIND[task.kind][format];
}

export interface ServeOptions {
  /** Sent as an attachment (a download) rather than inline. */
  download: boolean;
  cacheControl: string;
}

/**
 * How long a browser may reuse a shared file without asking again: a revisit within it downloads
 * nothing, after it the browser revalidates (304 by ETag, or 404 once the share is revoked). So
 * revoking a share takes effect within this many seconds, for whoever already fetched the file.
 */
export const SHARE_MAX_AGE_SECONDS = 300;

/** How `serveStoredFile` labels a stored file. */
export interface ServeStoredOptions extends ServeOptions {
  contentType: string;
  /** The name a browser saves it under. */
  downloadName: string;
}

/** Serves any file under studio storage (Range, ETag, 304, HEAD); 404 when it is not there. */
export async function serveStoredFile(request: Request, relative: string, options: ServeStoredOptions): Promise<Response> {
  let stored;
  try {
    stored = await fileStore().open(studioKey(relative));
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith("bad storage key"))) throw error;
    return new Response("Not Found", { status: 404 });
  }
  return serveFile(request, stored, {
    contentType: options.contentType,
    cacheControl: options.cacheControl,
    disposition: contentDisposition(options.download ? "attachment" : "inline", options.downloadName),
  });
}

/** Serves one of a task's stored files; 404 when it is not stored. */
export async function serveTaskFile(request: Request, task: StudioTask, which: TaskFile, options: ServeOptions): Promise<Response> {
  const relative = taskFilePath(task, which);
  if (!relative) return new Response("Not Found", { status: 404 });
  const ext = storedFormat(relative) ?? "bin";
  return serveStoredFile(request, relative, { ...options, contentType: contentTypeOf(ext), downloadName: downloadName(task, which, ext) });
}
