import "server-only";
import type { StudioTaskKind } from "@/lib/db/schema";
import type { MeshKind } from "@/lib/files/sniff";
import { findUploads, uploadInfo } from "@/lib/storage/uploads";
import { slotsFromBits } from "@/lib/x3d/forms/views";
import type { UploadInfo } from "@/lib/upload/check";
import type { ImagePrefill, MeshPrefill, Prefill } from "./form-props";
import { sourceImageUpload } from "../model/recorded-inputs";
import { usableCover, usableResult } from "./resolve-inputs";
import { findUserTask } from "../read/queries";

/**
 * What a create page starts with: `?again=<studio task>` re-uses that task's options and inputs
 * (those still stored), `?from=<studio task>` takes that task's result as the mesh, `?upload=`
 * one of the user's image uploads as the image. Only the user's own tasks and uploads count;
 * anything else leaves the form at its defaults with a notice.
 */

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const record = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

async function uploadsById(userId: string, ids: string[]): Promise<Map<string, UploadInfo>> {
  const found = await findUploads(userId, ids);
  return new Map([...found].map(([id, u]) => [id, uploadInfo(u)]));
}

async function meshPrefill(userId: string, stored: unknown, allowed: readonly MeshKind[]): Promise<MeshPrefill | undefined> {
  const mesh = record(stored);
  const url = str(mesh.url);
  if (url) return { source: "url", url };
  const upload = str(mesh.upload);
  if (upload) {
    const info = (await uploadsById(userId, [upload])).get(upload);
    return info ? { source: "upload", upload: info } : undefined;
  }
  const task = str(mesh.task);
  const option = task ? await usableResult(userId, task, allowed) : undefined;
  return option ? { source: "task", task: option } : undefined;
}

async function imagePrefill(userId: string, stored: unknown): Promise<ImagePrefill | undefined> {
  const image = record(stored);
  const url = str(image.url);
  if (url) return { source: "url", url };
  const task = str(image.task);
  if (task) {
    const cover = await usableCover(userId, task);
    return cover ? { source: "task", task: cover } : undefined;
  }
  const upload = str(image.upload);
  const info = upload ? (await uploadsById(userId, [upload])).get(upload) : undefined;
  return info ? { source: "upload", upload: info } : undefined;
}

/** The still-stored image (front view) the user's task was made from. */
async function sourceImageOf(userId: string, taskId: string): Promise<UploadInfo | undefined> {
  const task = await findUserTask(userId, taskId);
  const id = task ? sourceImageUpload(task.inputs) : undefined;
  const info = id ? (await uploadsById(userId, [id])).get(id) : undefined;
  return info?.kind === "image" ? info : undefined;
}

/** Inputs of an earlier task re-used as they were recorded by lib/tasks/create/create-*-task.ts. */
async function againInputs(userId: string, inputs: Record<string, unknown>, allowed: readonly MeshKind[]): Promise<Prefill> {
  const prefill: Prefill = {};
  let missing = false;
  const images = strings(inputs.images);
  const views = strings(inputs.multi_images);
  const found = await uploadsById(userId, [...images, ...views]);
  if (images[0]) {
    const info = found.get(images[0]);
    if (info) prefill.image = { source: "upload", upload: info };
    else missing = true;
  }
  if (views.length) {
    const infos = views.map((id) => found.get(id));
    if (infos.every(Boolean)) prefill.views = slotsFromBits(str(inputs.multi_images_bit) ?? "1111", infos as UploadInfo[]);
    else missing = true;
  }
  if (inputs.image !== undefined) {
    const image = await imagePrefill(userId, inputs.image);
    if (image) prefill.image = image;
    else missing = true;
  }
  if (inputs.mesh !== undefined) {
    const mesh = await meshPrefill(userId, inputs.mesh, allowed);
    if (mesh) prefill.mesh = mesh;
    else missing = true;
  }
  if (missing) prefill.notice = "Some of that task's inputs are no longer available: add them again.";
  return prefill;
}

/** The notice on a form that runs again a task still "checking". */
export const RUN_AGAIN_CHECKING =
  "The first attempt of this task may still finish at the service (its answer was lost): running it again may charge twice.";

export interface PrefillRequest {
  kind: StudioTaskKind;
  again?: string | undefined;
  from?: string | undefined;
  /** One of the user's image uploads to start with (the home page's drop zone sends a dropped image here). */
  upload?: string | undefined;
  /** Mesh types the form takes (texture: GLB only); none: `from` gives the result's cover image (depth). */
  meshTypes?: readonly MeshKind[];
}

/** The page's starting options and inputs for the user. */
export async function prefillFor(userId: string, request: PrefillRequest): Promise<Prefill> {
  const allowed = request.meshTypes ?? [];
  let prefill: Prefill = {};
  if (request.again) {
    const task = await findUserTask(userId, request.again);
    if (task?.kind === request.kind) {
      prefill = { options: task.options, ...(await againInputs(userId, task.inputs, allowed)) };
      // Its create answer was lost: the service may still run (and charge) the first attempt.
      if (task.state === "checking") prefill.notice = [RUN_AGAIN_CHECKING, prefill.notice].filter(Boolean).join(" ");
    } else prefill.notice = "That task cannot be run again here; the form starts from its defaults.";
  }
  if (request.from && allowed.length === 0) {
    const cover = await usableCover(userId, request.from);
    if (cover) prefill.image = { source: "task", task: cover };
    else prefill.notice = "That result's image cannot be used: it must be a finished task of yours.";
  } else if (request.from) {
    const option = await usableResult(userId, request.from, allowed);
    if (option) {
      prefill.mesh = { source: "task", task: option };
      // Texturing a result made from an image: that image is the one to paint it with.
      if (request.kind === "texture" && !prefill.image) {
        const source = await sourceImageOf(userId, option.id);
        if (source) prefill.image = { source: "upload", upload: source };
      }
    } else
      prefill.notice = `That result cannot be used here: it must be a finished task of yours with a ${allowed.map((t) => t.toUpperCase()).join(", ")} result.`;
  }
  if (request.upload) {
    const info = (await uploadsById(userId, [request.upload])).get(request.upload);
    if (info?.kind === "image") prefill.image = { source: "upload", upload: info };
    else prefill.notice = UPLOAD_GONE;
  }
  return prefill;
}

/** The notice when `?upload=` names no image of the user's. */
export const UPLOAD_GONE = "That image is no longer available: add it again.";
