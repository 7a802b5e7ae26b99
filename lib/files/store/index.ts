import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { serverEnv } from "@/lib/env";
import { processConstant } from "@/lib/global-singleton";
import { LocalStore } from "./local";
import { parseS3Url, S3Store } from "./s3";
import type { FileStore } from "./types";

export type { FileStore, LocalFolder, OpenedFile } from "./types";

/**
 * The store of this process's stored files: X3D_STORAGE's bucket when set, else DATA_DIR. One
 * per process and setting (Next.js loads routes and instrumentation as separate module graphs,
 * which must share one S3 client and its connections).
 */
export function fileStore(): FileStore {
  const env = serverEnv();
  const where = env.X3D_STORAGE ?? env.DATA_DIR;
  return processConstant(`x3d.files.store:${where}`, () =>
    env.X3D_STORAGE
      ? new S3Store(parseS3Url(env.X3D_STORAGE), { forcePathStyle: env.X3D_S3_FORCE_PATH_STYLE })
      : new LocalStore(env.DATA_DIR),
  );
}

/** How long a temporary download behind a Blob (storedBlob, S3 only) is kept: longer than any request that sends it. */
const BLOB_COPY_MS = 60 * 60 * 1000;

/**
 * A Blob of a stored file for a request body (a task's input sent to the service), read while the
 * request streams it. On S3 the object is first downloaded into the scratch folder, where copies
 * older than an hour are removed each time one is made. Null when the file is not stored.
 */
export async function storedBlob(key: string, type: string): Promise<Blob | null> {
  const store = fileStore();
  const copy = store.kind === "local" ? (await store.localCopy(key))?.path : await blobCopy(store, key);
  return copy ? fs.openAsBlob(copy, { type }) : null;
}

async function blobCopy(store: FileStore, key: string): Promise<string | null> {
  const dir = path.join(store.scratchRoot(), "blobs");
  await fsp.mkdir(dir, { recursive: true });
  for (const name of await fsp.readdir(dir)) {
    const stat = await fsp.stat(path.join(dir, name)).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > BLOB_COPY_MS) await fsp.rm(path.join(dir, name), { recursive: true, force: true });
  }
  const copy = await store.localCopy(key);
  if (!copy) return null;
  const kept = path.join(dir, `${crypto.randomBytes(9).toString("hex")}${path.extname(copy.path)}`);
  await fsp.rename(copy.path, kept);
  await copy.release();
  return kept;
}
