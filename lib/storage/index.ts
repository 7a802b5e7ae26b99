import "server-only";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { serverEnv } from "@/lib/env";

/** The studio's files: staged uploads and copies of task results, under DATA_DIR/studio. */
export function studioDir(): string {
  return path.join(serverEnv().DATA_DIR, "studio");
}

/** Absolute path of a stored file; refuses anything that would leave the studio folder. */
export function storedPath(relative: string): string {
  const root = studioDir();
  const full = path.resolve(root, relative);
  if (!full.startsWith(root + path.sep)) throw new Error(`path outside storage: ${relative}`);
  return full;
}

export const newId = (bytes = 16) => crypto.randomBytes(bytes).toString("base64url");

export const uploadFile = (uploadId: string) => path.join("uploads", uploadId);
export const resultFolder = (taskId: string) => path.join("results", taskId);
export const resultFile = (taskId: string, name: string) => path.join(resultFolder(taskId), name);

/** Writes bytes under a relative path, creating folders. */
export async function writeStored(relative: string, bytes: Uint8Array): Promise<void> {
  const full = storedPath(relative);
  await fs.mkdir(path.dirname(full), { recursive: true });
  await fs.writeFile(full, bytes);
}
