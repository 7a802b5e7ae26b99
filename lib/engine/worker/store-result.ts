/** Where a generation job's output lands: the task's folder, written by the worker thread that made it. */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { JobResult, StoredResult } from "../generate/job";

/** Writes one file under a temporary name, then renames it: a reader never sees half of it. */
async function writeWhole(dir: string, name: string, bytes: Uint8Array): Promise<void> {
  const temp = path.join(dir, `${name}.${crypto.randomBytes(6).toString("hex")}.part`);
  await fs.writeFile(temp, bytes);
  await fs.rename(temp, path.join(dir, name));
}

/**
 * The result is written here, in the worker: posting hundreds of megabytes to the main thread
 * would copy them there (twice the memory) and stall the web server while it deserialises.
 */
export async function storeResult(dir: string, result: JobResult): Promise<StoredResult> {
  const stored = { resultFile: `result.${result.resultExt}`, coverFile: `cover.${result.coverExt}` };
  await fs.mkdir(dir, { recursive: true });
  await writeWhole(dir, stored.resultFile, result.result);
  await writeWhole(dir, stored.coverFile, result.cover);
  return stored;
}
