/**
 * Where the stored files of both faces live: the studio's uploads, results, covers, display and
 * preview copies, the service's inputs and results. One interface with two backends: a folder
 * (DATA_DIR, the default) and an S3-compatible bucket (X3D_STORAGE=s3://bucket/prefix). Nothing
 * outside lib/files/store knows which one runs.
 *
 * A key is a relative path of `/`-separated names (`studio/results/<task>/result.glb`); each name
 * is letters, digits, `.`, `_` or `-`, never `.` or `..`. Files are written once, whole (a reader
 * never sees half of one), and never changed in place.
 */
export interface StoredInfo {
  size: number;
  /** A strong entity tag, quoted, naming this content. */
  etag: string;
  /** Modification time in ms. */
  lastModified: number;
}

/** A stored file opened for reading: its facts, and its bytes by range (both ends included). */
export interface OpenedFile extends StoredInfo {
  stream(start: number, end: number): Promise<ReadableStream<Uint8Array>>;
}

/** A local file holding a stored file's bytes, for code that needs a path; `release` removes it when it was a temporary copy. */
export interface LocalCopy {
  path: string;
  release(): Promise<void>;
}

/**
 * A folder on local disk standing for a prefix of the store, for work that reads and writes files
 * by path (generation and display-copy workers). On disk it is the stored folder itself, so
 * fetch and keep cost nothing; with S3 it is a scratch folder: fetch downloads, keep uploads, and
 * release removes it.
 */
export interface LocalFolder {
  path: string;
  /** The local path of the stored file `<prefix>/<name>`, downloaded first where needed; null when it is not stored. */
  fetch(name: string): Promise<string | null>;
  /** Stores the file `<path>/<name>` (written whole by the work) as `<prefix>/<name>`. */
  keep(name: string, contentType?: string): Promise<void>;
  release(): Promise<void>;
}

export interface ListedFile {
  key: string;
  size: number;
  lastModified: number;
  /** The object's entity tag, where the listing gives one (S3); a folder's listing does not. */
  etag?: string;
}

export interface FileStore {
  readonly kind: "local" | "s3";
  /** Stores the local file at `path` under `key`; the local file is gone afterwards (moved, or uploaded then removed). */
  putFile(key: string, path: string, contentType?: string): Promise<void>;
  putBytes(key: string, bytes: Uint8Array, contentType?: string): Promise<void>;
  stat(key: string): Promise<StoredInfo | null>;
  /** Opens a file for reading; null when there is none. The bytes read are those of the facts given, or the read fails. */
  open(key: string): Promise<OpenedFile | null>;
  readBytes(key: string): Promise<Uint8Array | null>;
  /** The file on local disk: the stored file itself for the folder backend, a temporary download for S3. Null when there is none. */
  localCopy(key: string): Promise<LocalCopy | null>;
  /** Copies `from` to `to` inside the store (a hard link, or a server-side copy); false when `from` does not exist. */
  copy(from: string, to: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Removes every file whose key starts with `prefix/`. */
  deletePrefix(prefix: string): Promise<void>;
  /** A local folder for the files under `prefix` (see LocalFolder). */
  folder(prefix: string): Promise<LocalFolder>;
  /** The files whose key starts with `prefix/`, at any depth. */
  list(prefix: string): AsyncIterable<ListedFile>;
  /**
   * A folder on local disk for work in progress (staged uploads, a job's scratch space): under
   * DATA_DIR for the folder backend, so a finished file moves into place without a copy; the
   * system's temporary folder for S3, so that nothing is written under DATA_DIR.
   */
  scratchRoot(): string;
}

const NAME = /^(?!\.\.?$)[A-Za-z0-9._-]+$/;

/** Refuses a key that is not a relative path of plain names (a task id that came in a URL, say). */
export function checkKey(key: string): string {
  const names = key.split("/");
  if (key.length === 0 || key.length > 512 || !names.every((n) => NAME.test(n))) throw new Error(`bad storage key: ${JSON.stringify(key)}`);
  return key;
}
