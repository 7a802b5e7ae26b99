import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { checkKey, type FileStore, type ListedFile, type LocalFolder, type OpenedFile, type StoredInfo } from "./types";

/**
 * The ETag is strong although it is built from the file's identity, not its bytes: stored files
 * are written once (under a temporary name then renamed) and never changed in place, so size,
 * mtime and inode name one content.
 */
function infoOf(stat: fs.BigIntStats): StoredInfo {
  const hex = (n: bigint) => n.toString(16);
  return { size: Number(stat.size), etag: `"${hex(stat.size)}-${hex(stat.mtimeNs)}-${hex(stat.ino)}"`, lastModified: Number(stat.mtimeMs) };
}

/** Writes `to` whole: `write` fills a temporary name beside it, which is then renamed, so a reader never sees half a file. */
async function writeWhole(to: string, write: (partial: string) => Promise<void>): Promise<void> {
  await fsp.mkdir(path.dirname(to), { recursive: true });
  const partial = `${to}.${crypto.randomBytes(6).toString("hex")}.part`;
  try {
    await write(partial);
    await fsp.rename(partial, to);
  } finally {
    await fsp.rm(partial, { force: true });
  }
}

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** Stored files as files under a folder (DATA_DIR): a key is a path below it. */
export class LocalStore implements FileStore {
  readonly kind = "local";
  constructor(private readonly root: string) {}

  /** The path of `key`; keys are plain names, so it never leaves the folder. */
  pathOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split("/"));
  }

  scratchRoot(): string {
    return this.root;
  }

  async putFile(key: string, from: string): Promise<void> {
    const to = this.pathOf(key);
    await fsp.mkdir(path.dirname(to), { recursive: true });
    try {
      await fsp.rename(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      // Another device: a copy, written whole, then the source goes.
      await writeWhole(to, (partial) => fsp.copyFile(from, partial));
      await fsp.rm(from, { force: true });
    }
  }

  async putBytes(key: string, bytes: Uint8Array): Promise<void> {
    await writeWhole(this.pathOf(key), (partial) => fsp.writeFile(partial, bytes));
  }

  async stat(key: string): Promise<StoredInfo | null> {
    const stat = await fsp.stat(this.pathOf(key), { bigint: true }).catch((error: unknown) => {
      if (missing(error)) return null;
      throw error;
    });
    return stat?.isFile() ? infoOf(stat) : null;
  }

  async open(key: string): Promise<OpenedFile | null> {
    const full = this.pathOf(key);
    // The Blob before the stat: a Blob fails to read once its file is replaced, so the bytes
    // read are never another file's under this file's facts. (openAsBlob, not createReadStream:
    // on Node 20 the latter throws "Controller is already closed" when a client goes away.)
    let blob: Blob;
    try {
      blob = await fs.openAsBlob(full);
    } catch {
      return null;
    }
    const info = await this.stat(key).catch(() => null);
    if (!info) return null;
    return { ...info, stream: async (start, end) => blob.slice(start, end + 1).stream() as ReadableStream<Uint8Array> };
  }

  async readBytes(key: string): Promise<Uint8Array | null> {
    return fsp.readFile(this.pathOf(key)).catch((error: unknown) => {
      if (missing(error) || (error as NodeJS.ErrnoException).code === "EISDIR") return null;
      throw error;
    });
  }

  async localCopy(key: string) {
    const full = this.pathOf(key);
    return (await this.stat(key)) ? { path: full, release: async () => {} } : null;
  }

  async copy(from: string, to: string): Promise<boolean> {
    const source = this.pathOf(from);
    const target = this.pathOf(to);
    if (!(await this.stat(from))) return false;
    // A hard link where the file system allows, else a copy.
    await writeWhole(target, (partial) => fsp.link(source, partial).catch(() => fsp.copyFile(source, partial)));
    return true;
  }

  async folder(prefix: string): Promise<LocalFolder> {
    const dir = this.pathOf(prefix);
    await fsp.mkdir(dir, { recursive: true });
    return {
      path: dir,
      fetch: async (name) => ((await this.stat(`${prefix}/${name}`)) ? this.pathOf(`${prefix}/${name}`) : null),
      keep: async (name) => {
        if (!(await this.stat(`${prefix}/${name}`))) throw new Error(`${prefix}/${name} was not written`);
      },
      release: async () => {},
    };
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fsp.rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<ListedFile> {
    const walk = async function* (dir: string, keyPrefix: string): AsyncGenerator<ListedFile> {
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
        if (missing(error) || (error as NodeJS.ErrnoException).code === "ENOTDIR") return [];
        throw error;
      });
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const key = `${keyPrefix}/${entry.name}`;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) yield* walk(full, key);
        else if (entry.isFile()) {
          const stat = await fsp.stat(full).catch(() => null);
          if (stat) yield { key, size: stat.size, lastModified: stat.mtimeMs };
        }
      }
    };
    yield* walk(this.pathOf(prefix), prefix);
  }
}
