import "server-only";
import { desc, eq, isNotNull } from "drizzle-orm";
import { db } from "@/lib/db";
import { studioTasks, type StudioTask, type Upload } from "@/lib/db/schema";
import { HEAD_BYTES, sniffImage, sniffMesh, type MeshKind } from "@/lib/files/sniff";
import { fileStore, storedBlob } from "@/lib/files/store";
import { studioKey } from "@/lib/storage";
import { findUploads, MIME_TYPES, uploadBlob } from "@/lib/storage/uploads";
import { userMessage } from "@/lib/x3d/errors";
import type { X3dFile } from "@/lib/x3d/schemas";
import type { MeshSource, Parsed } from "./parse-form";
import type { CoverOption, MeshResultOption } from "./form-props";
import { findUserTask, ownedBy } from "../read/queries";
import { resultType } from "../model/results";

/**
 * Turns a form's inputs (upload ids, URLs, earlier studio tasks) into what the service gets,
 * after checking that every upload and task belongs to the user. Someone else's id reads the
 * same as an unknown one.
 */

const GONE_IMAGE = "That image is no longer available. Upload it again.";
const GONE_MESH = "That model is no longer available. Upload it again.";

/** A name the service's extension check accepts: the original stem and the sniffed type. */
function serviceName(filename: string, type: string): string {
  const stem =
    filename
      .replace(/\.[^.]*$/, "")
      .replace(/[^\w.-]+/g, "_")
      .slice(0, 60) || "input";
  return `${stem}.${type}`;
}

async function uploadAsFile(upload: Upload): Promise<X3dFile> {
  const data = await uploadBlob(upload);
  if (!data) throw new Error(`upload ${upload.id} is not stored`);
  return { name: serviceName(upload.filename, upload.type), type: MIME_TYPES[upload.type as keyof typeof MIME_TYPES], data };
}

/** A stored file of the studio as a Blob; throws when it is gone. */
async function storedFileBlob(relative: string, type: string): Promise<Blob> {
  const data = await storedBlob(studioKey(relative), type);
  if (!data) throw new Error(`${relative} is not stored`);
  return data;
}

/** The user's image uploads, in the order of `ids`, as service files. */
export async function imageFiles(userId: string, ids: readonly string[], field: string): Promise<Parsed<X3dFile[]>> {
  const found = await findUploads(userId, ids);
  const files: X3dFile[] = [];
  for (const id of ids) {
    const upload = found.get(id);
    if (!upload || upload.kind !== "image") return { ok: false, fields: { [field]: GONE_IMAGE } };
    try {
      files.push(await uploadAsFile(upload));
    } catch {
      return { ok: false, fields: { [field]: GONE_IMAGE } };
    }
  }
  return { ok: true, value: files };
}

/** What a mesh source becomes: a file or a URL for the service, and how to record it. */
export interface MeshInput {
  mesh?: X3dFile;
  mesh_url?: string;
  /** For studioTasks.inputs: {upload}, {url} or {task}. */
  record: Record<string, string>;
}

const wrongType = (allowed: readonly MeshKind[]) => userMessage(allowed.length === 1 && allowed[0] === "glb" ? 10031016 : 10030005);

/** The first bytes of a stored file. */
async function head(relative: string): Promise<{ bytes: Uint8Array; size: number }> {
  const opened = await fileStore().open(studioKey(relative));
  if (!opened) throw new Error(`${relative} is not stored`);
  if (opened.size === 0) return { bytes: new Uint8Array(), size: 0 };
  const bytes = new Uint8Array(await new Response(await opened.stream(0, Math.min(opened.size, HEAD_BYTES) - 1)).arrayBuffer());
  return { bytes, size: opened.size };
}

/** Resolves a mesh source the user may use: their own upload, any http(s) URL, or their own successful result. */
export async function meshInput(userId: string, source: MeshSource, allowed: readonly MeshKind[]): Promise<Parsed<MeshInput>> {
  if (source.source === "url") return { ok: true, value: { mesh_url: source.url, record: { url: source.url } } };
  if (source.source === "upload") {
    const upload = (await findUploads(userId, [source.upload])).get(source.upload);
    if (!upload || upload.kind !== "mesh") return { ok: false, fields: { mesh: GONE_MESH } };
    if (!allowed.includes(upload.type as MeshKind)) return { ok: false, fields: { mesh: wrongType(allowed) } };
    try {
      return { ok: true, value: { mesh: await uploadAsFile(upload), record: { upload: upload.id } } };
    } catch {
      return { ok: false, fields: { mesh: GONE_MESH } };
    }
  }
  const task = await findUserTask(userId, source.task);
  if (!task || task.state !== "success" || !task.resultFile) {
    return { ok: false, fields: { mesh: "That result is not available: pick another one, or upload a model." } };
  }
  let type: MeshKind | null;
  try {
    const { bytes, size } = await head(task.resultFile);
    type = sniffMesh(bytes, size);
  } catch {
    return { ok: false, fields: { mesh: "That result's file is missing: pick another one, or upload a model." } };
  }
  if (!type || !allowed.includes(type)) return { ok: false, fields: { mesh: wrongType(allowed) } };
  let data: Blob;
  try {
    data = await storedFileBlob(task.resultFile, MIME_TYPES[type]);
  } catch {
    return { ok: false, fields: { mesh: "That result's file is missing: pick another one, or upload a model." } };
  }
  return { ok: true, value: { mesh: { name: `result.${type}`, type: MIME_TYPES[type], data }, record: { task: task.id } } };
}

/** "2025-03-12 14:03 UTC": the same text on the server and in the browser. */
const createdLabel = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** A finished task as a picker entry. */
const resultOption = (task: StudioTask, type: MeshKind): MeshResultOption => ({
  id: task.id,
  kind: task.kind,
  type,
  created: createdLabel(task.createdAt),
});

/** The user's task usable as a mesh of one of `allowed` types, as a picker entry. */
export async function usableResult(userId: string, id: string, allowed: readonly MeshKind[]): Promise<MeshResultOption | undefined> {
  const task = await findUserTask(userId, id);
  const type = task?.state === "success" && task.resultFile ? (resultType(task) as MeshKind | undefined) : undefined;
  return task && type && allowed.includes(type) ? resultOption(task, type) : undefined;
}

/** The user's successful tasks whose result is one of `allowed`, newest first. */
export async function meshResults(userId: string, allowed: readonly MeshKind[], limit = 50): Promise<MeshResultOption[]> {
  const rows = await (
    await db()
  )
    .select()
    .from(studioTasks)
    .where(ownedBy(userId, eq(studioTasks.state, "success"), isNotNull(studioTasks.resultFile)))
    .orderBy(desc(studioTasks.createdAt))
    .limit(200);
  const options: MeshResultOption[] = [];
  for (const row of rows) {
    const type = resultType(row) as MeshKind | undefined;
    if (!type || !allowed.includes(type)) continue;
    options.push(resultOption(row, type));
    if (options.length >= limit) break;
  }
  return options;
}

/** The user's finished task with a stored cover, as the depth form offers it. */
export async function usableCover(userId: string, id: string): Promise<CoverOption | undefined> {
  const task = await findUserTask(userId, id);
  if (!task || task.state !== "success" || !task.coverFile) return undefined;
  return { id: task.id, kind: task.kind, created: createdLabel(task.createdAt) };
}

/** The cover image of the user's own finished task, as a service file (depth from a result). */
export async function coverImageFile(userId: string, id: string, field: string): Promise<Parsed<X3dFile>> {
  const task = await findUserTask(userId, id);
  const gone = { ok: false as const, fields: { [field]: "That result's image is not available: pick another image." } };
  if (!task || task.state !== "success" || !task.coverFile) return gone;
  try {
    const type = sniffImage((await head(task.coverFile)).bytes);
    if (!type) return gone;
    const data = await storedFileBlob(task.coverFile, MIME_TYPES[type]);
    return { ok: true, value: { name: `cover.${type}`, type: MIME_TYPES[type], data } };
  } catch {
    return gone;
  }
}
