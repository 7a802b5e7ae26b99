import "server-only";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { TaskKind } from "@/lib/x3d/costs";
import { fileStore } from "@/lib/files/store";
import { processConstant } from "@/lib/global-singleton";

/** Where a task input comes from: a file stored in the task's folder, or a URL fetched when it runs. */
export type InputSource = { file: string } | { url: string };

const PREFIX: Record<TaskKind, string> = {
  "image-to-3d": "i3d",
  split: "split",
  depth: "depth",
  segmentation: "segmentation",
};

/** Opaque task ids shaped like the live service's: `<kind>_<yyyymmdd>_<hex>`. */
export function newTaskId(kind: TaskKind): string {
  const day = new Date().toISOString().slice(0, 10).replaceAll("-", "");
  return `${PREFIX[kind]}_${day}_${crypto.randomBytes(12).toString("hex")}`;
}

/** Whether `id` has the shape newTaskId gives: anything else (a NUL byte, a path, 10 kB of text) names no task. */
export function isTaskId(id: string): boolean {
  return /^[a-z0-9]+_\d{8}_[0-9a-f]{24}$/.test(id);
}

/** The store prefix of a task's files (lib/files/store): its inputs, result and cover. */
export function taskPrefix(taskId: string): string {
  // Ids are ours, but they also arrive in URLs: never let one name another place.
  if (!isTaskId(taskId)) throw new Error(`bad task id ${taskId}`);
  return `engine/tasks/${taskId}`;
}

export const taskFileKey = (taskId: string, name: string) => `${taskPrefix(taskId)}/${name}`;

/** Local files of the service's own (staging folders, instance markers): under DATA_DIR/engine, or the system's temporary folder with S3. */
export const engineScratch = (...names: string[]) => path.join(fileStore().scratchRoot(), "engine", ...names);

/**
 * This server process among those sharing DATA_DIR: its staging folders carry it, and it keeps
 * a marker file fresh while it runs (housekeeping.ts), so another server can tell its live
 * uploads from those of a server that died. One per process, whichever of Next's bundles asks:
 * a route's own copy of this module must not name its uploads after another server.
 */
export const INSTANCE = processConstant("x3d.instance", () => `${process.pid}-${crypto.randomBytes(4).toString("hex")}`);

/** `<instance>.<random>`: whose upload a staging folder holds. */
export function stagingName(instance: string): string {
  return `${instance}.${crypto.randomBytes(12).toString("hex")}`;
}

/** The instance a staging folder's name gives; undefined for names of another shape (older releases). */
export function stagingInstance(name: string): string | undefined {
  const match = /^(\d+-[0-9a-f]{8})\.[0-9a-f]{24}$/.exec(name);
  return match?.[1];
}

/** A fresh folder for one request's uploads, removed by the caller whatever happens. */
export async function stagingDir(): Promise<string> {
  const dir = engineScratch("staging", stagingName(INSTANCE));
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

/** Stores an uploaded file among the task's files under a stable name (the staged file is gone after). */
export async function keepInput(taskId: string, fromPath: string, name: string): Promise<InputSource> {
  await fileStore().putFile(taskFileKey(taskId, name), fromPath);
  return { file: name };
}

export async function removeTaskFiles(taskId: string): Promise<void> {
  await fileStore().deletePrefix(taskPrefix(taskId));
}
