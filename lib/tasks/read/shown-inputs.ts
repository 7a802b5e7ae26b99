import "server-only";
import type { StudioTask, Upload } from "@/lib/db/schema";
import { fileStore } from "@/lib/files/store";
import { studioKey } from "@/lib/storage";
import { findUpload } from "@/lib/storage/uploads";
import { visibleFileName } from "@/lib/files/file-name";
import { inputEntries, type InputEntry, type TaskInputView } from "../model/recorded-inputs";
import { findUserTask } from "./queries";
import { isShared, taskFileUrl, type Audience } from "../model/file-urls";
import { resultType, serveStoredFile, type ServeOptions } from "../model/results";
import { contentTypeOf } from "@/lib/content-types";

/**
 * A task's inputs beside its result. Every look-up goes through the task's owner (their
 * uploads, their tasks), so a recorded id can never reach another user's file, on the task
 * page or behind a share token.
 */

const exists = (relative: string) =>
  fileStore()
    .stat(studioKey(relative))
    .then(
      (s) => s !== null,
      () => false,
    );

type Resolved = { upload: Upload } | { task: StudioTask } | { url: string } | null;

async function resolve(owner: string, entry: InputEntry): Promise<Resolved> {
  if ("upload" in entry.ref) {
    const upload = await findUpload(owner, entry.ref.upload);
    return upload && upload.kind === (entry.role === "image" ? "image" : "mesh") ? { upload } : null;
  }
  if ("task" in entry.ref) {
    const task = await findUserTask(owner, entry.ref.task);
    return task ? { task } : null;
  }
  return { url: entry.ref.url };
}

/** The stored image behind an input: an image upload, or the cover of the earlier task it came from. */
function imageFileOf(resolved: Resolved, role: InputEntry["role"]): { file: string; type: string } | null {
  if (!resolved || "url" in resolved) return null;
  if ("upload" in resolved) return role === "image" ? { file: resolved.upload.file, type: resolved.upload.type } : null;
  const cover = resolved.task.coverFile;
  return cover ? { file: cover, type: /\.([a-z0-9]+)$/i.exec(cover)?.[1]?.toLowerCase() ?? "bin" } : null;
}

/** Said of an input whose earlier task was deleted since (the page still shows, without it). */
export const DELETED_SOURCE = "a deleted task's result";

function nameOf(entry: InputEntry, resolved: Resolved, shared: boolean): string | null {
  if (!resolved) return "task" in entry.ref ? DELETED_SOURCE : null;
  if ("upload" in resolved) return visibleFileName(resolved.upload.filename);
  if ("task" in resolved) {
    const type = resultType(resolved.task);
    return `an earlier ${resolved.task.kind} result${type ? ` (${type.toUpperCase()})` : ""}`;
  }
  // A source URL can name the owner's storage: a share page does not show it.
  return shared ? "a file from a URL" : resolved.url;
}

/** The task's inputs as `audience` sees them; images link to their `inputs/<n>` file. */
export async function taskInputs(task: StudioTask, audience: Audience): Promise<TaskInputView[]> {
  const shared = isShared(audience);
  const entries = inputEntries(task.kind, task.inputs);
  return Promise.all(
    entries.map(async (entry, index): Promise<TaskInputView> => {
      const resolved = await resolve(task.userId, entry);
      const file = imageFileOf(resolved, entry.role);
      return {
        label: entry.label,
        role: entry.role,
        imageUrl: file && (await exists(file.file)) ? taskFileUrl(audience, `inputs/${index}`) : null,
        name: nameOf(entry, resolved, shared),
        taskId: !shared && resolved && "task" in resolved ? resolved.task.id : null,
      };
    }),
  );
}

/** Serves the image of the task's input number `index` (see `taskInputs`); 404 when there is none. */
export async function serveInputImage(request: Request, task: StudioTask, index: string, options: ServeOptions): Promise<Response> {
  const entry = /^\d{1,2}$/.test(index) ? inputEntries(task.kind, task.inputs)[Number(index)] : undefined;
  const image = entry ? imageFileOf(await resolve(task.userId, entry), entry.role) : null;
  if (!entry || !image) return new Response("Not Found", { status: 404 });
  const { file, type } = image;
  return serveStoredFile(request, file, {
    ...options,
    contentType: contentTypeOf(type),
    downloadName: `${task.kind}-input-${entry.label.replace(/\W+/g, "-")}.${type === "jpeg" ? "jpg" : type}`,
  });
}
