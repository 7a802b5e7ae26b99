import "server-only";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { TaskKind } from "@/lib/x3d/costs";
import { engineConfig } from "../config";
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

export function taskDir(taskId: string): string {
  // Ids are ours, but they also arrive in URLs: never let one climb out of the folder.
  if (!isTaskId(taskId)) throw new Error(`bad task id ${taskId}`);
  return path.join(engineConfig().filesDir, "tasks", taskId);
}

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
  const dir = path.join(engineConfig().filesDir, "staging", stagingName(INSTANCE));
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

/** Moves an uploaded file into the task's folder under a stable name. */
export async function keepInput(taskId: string, fromPath: string, name: string): Promise<InputSource> {
  const dir = taskDir(taskId);
  await fs.mkdir(dir, { recursive: true });
  await fs.rename(fromPath, path.join(dir, name));
  return { file: name };
}

export async function removeTaskFiles(taskId: string): Promise<void> {
  await fs.rm(taskDir(taskId), { recursive: true, force: true });
}
