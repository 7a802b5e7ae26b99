import "server-only";
import crypto from "node:crypto";
import path from "node:path";
import { fileStore } from "@/lib/files/store";

/**
 * The studio's stored files (staged uploads, copies of task results and their display copies),
 * in the file store under `studio/`. Rows keep a file's name relative to that folder
 * ("results/<task>/result.glb"); studioKey makes it a store key.
 */
export const studioKey = (relative: string) => `studio/${relative}`;

export const newId = (bytes = 16) => crypto.randomBytes(bytes).toString("base64url");

export const uploadFile = (uploadId: string) => `uploads/${uploadId}`;
export const resultFolder = (taskId: string) => `results/${taskId}`;
export const resultFile = (taskId: string, name: string) => `${resultFolder(taskId)}/${name}`;

/** Writes bytes under a name relative to the studio's folder. */
export async function writeStored(relative: string, bytes: Uint8Array): Promise<void> {
  await fileStore().putBytes(studioKey(relative), bytes);
}

/** A folder on local disk for the studio's work in progress (incoming uploads): under DATA_DIR, or the system's temporary folder with S3. */
export function studioScratch(...names: string[]): string {
  return path.join(fileStore().scratchRoot(), "studio", ...names);
}
