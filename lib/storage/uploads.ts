import "server-only";
import { mkdir, rm } from "node:fs/promises";
import { and, eq, inArray } from "drizzle-orm";
import { db } from "@/lib/db";
import { uploads, type Upload } from "@/lib/db/schema";
import { MultipartError, parseMultipart } from "@/lib/files/multipart";
import { formatBytes } from "@/lib/files/format-bytes";
import { checkUpload, maxUploadBytes, type UploadInfo, type UploadKind, type UploadType } from "@/lib/upload/check";
import { LIMITS } from "@/lib/x3d/options";
import { fileStore, storedBlob } from "@/lib/files/store";
import { cleanFileName, visibleFileName } from "@/lib/files/file-name";
import { newId, studioKey, studioScratch, uploadFile } from "./index";

/**
 * Staged uploads: a file dropped in the studio is streamed to disk (never held whole in
 * memory), checked by its bytes, and recorded for the user who sent it. Tasks read them back
 * as file-backed Blobs, so even a 200 MB mesh is never buffered.
 */

export type StageResult = { ok: true; upload: UploadInfo } | { ok: false; status: number; error: string; field: string };

export const MIME_TYPES: Record<UploadType, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  glb: "model/gltf-binary",
  stl: "model/stl",
  obj: "model/obj",
};

function refusal(error: MultipartError, kind: UploadKind | undefined): StageResult {
  switch (error.kind) {
    case "file-too-large": {
      const limits = kind
        ? `${kind === "image" ? "images" : "models"} may be at most ${formatBytes(maxUploadBytes(kind))}`
        : `models may be at most ${formatBytes(maxUploadBytes("mesh"))}, images ${formatBytes(maxUploadBytes("image"))}`;
      return { ok: false, status: 413, error: `The file is too large: ${limits}.`, field: "file" };
    }
    case "too-many-files":
      return { ok: false, status: 400, error: "Send one file at a time.", field: "file" };
    case "not-multipart":
      return { ok: false, status: 400, error: "Send the file as multipart/form-data in a field named file.", field: "file" };
    default:
      return { ok: false, status: 400, error: "The upload could not be read. Try again.", field: error.field ?? "file" };
  }
}

/**
 * Streams the `file` field of a multipart request into staging, checks it (kind given: that
 * kind's limit and types; none: up to 200 MB, images at most 20 MB) and records it for `userId`.
 */
export async function stageUpload(userId: string, request: Request, kind: UploadKind | undefined): Promise<StageResult> {
  const incoming = studioScratch("uploads", "incoming");
  await mkdir(incoming, { recursive: true });
  let stored;
  try {
    const parsed = await parseMultipart(request, {
      dir: incoming,
      maxFileBytes: () => (kind ? maxUploadBytes(kind) : LIMITS.meshBytes),
      maxFiles: 1,
      maxFieldBytes: 1024,
      maxFields: 10,
      fileFields: new Set(["file"]),
      countAs: "studio",
    });
    stored = parsed.files.get("file")?.[0];
  } catch (error) {
    if (error instanceof MultipartError) return refusal(error, kind);
    throw error;
  }
  if (!stored) return { ok: false, status: 400, error: "No file was sent.", field: "file" };

  // The name as kept and shown (no folders, controls or bidi overrides), also in the refusal.
  const filename = cleanFileName(stored.filename, "");
  const check = checkUpload({ name: filename || "The file", size: stored.size, head: stored.head, kind });
  if (!check.ok) {
    await rm(stored.path, { force: true });
    const status = check.reason === "size" ? 413 : check.reason === "type" ? 415 : 400;
    return { ok: false, status, error: check.error, field: "file" };
  }
  const upload: UploadInfo = {
    id: newId(),
    kind: check.kind,
    type: check.type,
    filename: filename || `upload.${check.type}`,
    size: stored.size,
  };
  const file = uploadFile(upload.id);
  try {
    await fileStore().putFile(studioKey(file), stored.path, MIME_TYPES[upload.type as UploadType]);
    await (await db()).insert(uploads).values({ ...upload, userId, file });
  } catch (error) {
    await rm(stored.path, { force: true });
    await fileStore().delete(studioKey(file));
    throw error;
  }
  return { ok: true, upload };
}

/** The user's upload with this id, or undefined (also for someone else's). */
export async function findUpload(userId: string, id: string): Promise<Upload | undefined> {
  const [row] = await (
    await db()
  )
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.userId, userId)))
    .limit(1);
  return row;
}

/** The user's uploads among `ids`, by id; others' and unknown ids are absent. */
export async function findUploads(userId: string, ids: readonly string[]): Promise<Map<string, Upload>> {
  if (ids.length === 0) return new Map();
  const rows = await (
    await db()
  )
    .select()
    .from(uploads)
    .where(and(inArray(uploads.id, [...ids]), eq(uploads.userId, userId)));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The public shape of an upload row (names stored before cleanFileName's rule shown without their controls). */
export const uploadInfo = (u: Upload): UploadInfo => ({
  id: u.id,
  kind: u.kind,
  type: u.type as UploadType,
  filename: visibleFileName(u.filename),
  size: u.size,
});

/** A Blob backed by the staged file (read lazily while a request streams it); null when the file is gone. */
export function uploadBlob(upload: Upload): Promise<Blob | null> {
  return storedBlob(studioKey(upload.file), MIME_TYPES[upload.type as UploadType]);
}

/** A response body streaming the staged file, and its size; undefined when the file is gone. */
export async function openUpload(upload: Upload): Promise<{ body: ReadableStream<Uint8Array>; size: number } | undefined> {
  const opened = await fileStore().open(studioKey(upload.file));
  return opened ? { body: await opened.stream(0, Math.max(0, opened.size - 1)), size: opened.size } : undefined;
}
