import "server-only";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { sql } from "drizzle-orm";
import { database } from "@/lib/db";
import { serverEnv } from "@/lib/env";
import { fileStore, type FileStore } from "@/lib/files/store";
import { log } from "@/lib/log";
import { OPS_TOKEN_FILE } from "./ops-token";
import { tarBlocks, type TarEntry } from "./tar";

/**
 * A backup archive (docs/operations.md#backups), as GET /api/ops/backup streams it: a gzipped tar
 * of, in this order,
 * - `manifest.json`: BackupManifest;
 * - `db/<table>.jsonl`: every row of every table of the `public` schema, one JSON object a line,
 *   all read in one repeatable-read transaction (a consistent snapshot);
 * - `secrets/<name>`: the secrets generated into DATA_DIR, when they exist;
 * - `files/<key>`: every stored file (local disk), or `files-manifest.jsonl` (S3): each key,
 *   size and ETag, one a line;
 * - `end.json`: how many files and bytes; its presence says the archive is whole.
 * The database is read first and the files after, so every file a row names is there: a file is
 * written before the row that names it.
 */
const BACKUP_FORMAT = 1;

interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  app: { name: string; version: string };
  database: "pglite" | "postgres";
  /** The migrations applied to the database (drizzle's journal), oldest first. */
  migrations: { count: number; hashes: string[] };
  /** Rows per table of the `public` schema. */
  tables: Record<string, number>;
  storage: { kind: "local" } | { kind: "s3"; location: string };
}

/** The secrets generated into DATA_DIR (lib/accounts/auth-secret, lib/embedded-credentials, ./ops-token). */
const SECRET_FILES = ["auth-secret", "x3d-credentials.json", OPS_TOKEN_FILE];

/** The prefixes of the store that hold what users and clients made; scratch, staging and instance markers are not among them. */
const BACKED_UP_PREFIXES = ["studio/uploads", "studio/results", "studio/deleted", "engine/tasks"];

/**
 * Whether a stored file belongs in a backup: a staged upload (`studio/uploads/<id>`, not the
 * uploads still coming in under `studio/uploads/incoming/`), a result copy, a deleted task's
 * marker or a service task's file; never a file still being written (`*.part`).
 */
export function backedUp(key: string): boolean {
  const names = key.split("/");
  if (names.some((name) => name.endsWith(".part"))) return false;
  if (names[0] === "studio" && names[1] === "uploads") return names.length === 3 && names[2] !== "incoming";
  return BACKED_UP_PREFIXES.some((prefix) => key.startsWith(`${prefix}/`));
}

/** Rows fetched from a table's cursor at a time. */
const FETCH_ROWS = 500;

interface DatabaseSnapshot {
  kind: "pglite" | "postgres";
  migrations: { count: number; hashes: string[] };
  tables: Record<string, number>;
}

/**
 * Writes every table of the `public` schema into `dir/<table>.jsonl`, in one read-only
 * repeatable-read transaction: the rows of all tables as of one instant, whatever commits while
 * they are read. With the embedded database other statements wait until it ends (it is one
 * connection); with PostgreSQL nothing waits.
 */
async function snapshotDatabase(dir: string): Promise<DatabaseSnapshot> {
  const handle = await database();
  const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
  return handle.db.transaction(
    async (tx) => {
      const tables = rowsOf<{ name: string }>(
        await tx.execute(sql`select tablename as name from pg_catalog.pg_tables where schemaname = 'public' order by tablename`),
      ).map((r) => r.name);
      const hashes = rowsOf<{ hash: string }>(await tx.execute(sql`select hash from drizzle.__drizzle_migrations order by id`)).map(
        (r) => r.hash,
      );
      const counts: Record<string, number> = {};
      for (const table of tables) {
        const out = fs.createWriteStream(path.join(dir, `${table}.jsonl`), { mode: 0o600 });
        let rows = 0;
        try {
          // A cursor: a table of any size is read FETCH_ROWS rows at a time.
          await tx.execute(sql.raw(`declare backup_rows no scroll cursor for select row_to_json(t)::text as row from "${table}" t`));
          for (;;) {
            const batch = rowsOf<{ row: string }>(await tx.execute(sql.raw(`fetch ${FETCH_ROWS} from backup_rows`)));
            if (batch.length === 0) break;
            const text = batch.map((r) => `${r.row}\n`).join("");
            if (!out.write(text)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
            rows += batch.length;
          }
          await tx.execute(sql.raw("close backup_rows"));
        } finally {
          await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
        }
        counts[table] = rows;
      }
      return { kind: handle.kind, migrations: { count: hashes.length, hashes }, tables: counts };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

function appVersion(): { name: string; version: string } {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as { name?: string; version?: string };
    return { name: pkg.name ?? "x3d-studio", version: pkg.version ?? "unknown" };
  } catch {
    return { name: "x3d-studio", version: "unknown" };
  }
}

const textEntry = (name: string, text: string): TarEntry => {
  const bytes = Buffer.from(text, "utf8");
  return { path: name, size: bytes.length, mtime: new Date(), body: [bytes] };
};

async function fileEntry(name: string, file: string): Promise<TarEntry | null> {
  const stat = await fsp.stat(file).catch(() => null);
  if (!stat?.isFile()) return null;
  return { path: name, size: stat.size, mtime: stat.mtime, body: fs.createReadStream(file) };
}

/** Every backed-up file of the store, listed prefix by prefix. */
async function* backedUpFiles(store: FileStore) {
  for (const prefix of BACKED_UP_PREFIXES) for await (const file of store.list(prefix)) if (backedUp(file.key)) yield file;
}

/** The archive's entries after the database: secrets, then the files or their manifest, then end.json. */
async function* entries(snapshotDir: string, manifest: BackupManifest): AsyncGenerator<TarEntry> {
  yield textEntry("manifest.json", `${JSON.stringify(manifest, null, 2)}\n`);
  for (const table of Object.keys(manifest.tables)) {
    const entry = await fileEntry(`db/${table}.jsonl`, path.join(snapshotDir, `${table}.jsonl`));
    if (!entry) throw new Error(`the snapshot of ${table} is missing`);
    yield entry;
  }
  const dataDir = serverEnv().DATA_DIR;
  for (const name of SECRET_FILES) {
    const entry = await fileEntry(`secrets/${name}`, path.join(dataDir, name));
    if (entry) yield entry;
  }
  const store = fileStore();
  let files = 0;
  let bytes = 0;
  if (store.kind === "s3") {
    // No bytes: the bucket keeps them (its versioning or replication is its backup). The keys are
    // what the restore checks are there.
    const lines: string[] = [];
    for await (const file of backedUpFiles(store)) {
      lines.push(JSON.stringify({ key: file.key, size: file.size, etag: file.etag ?? null }));
      files++;
      bytes += file.size;
    }
    yield textEntry("files-manifest.jsonl", lines.map((l) => `${l}\n`).join(""));
  } else {
    for await (const listed of backedUpFiles(store)) {
      // Gone since it was listed (a task deleted, a finished task's files expired): left out.
      const opened = await store.open(listed.key);
      if (!opened) continue;
      const size = opened.size;
      yield {
        path: `files/${listed.key}`,
        size,
        mtime: new Date(opened.lastModified),
        body:
          size === 0 ? [] : Readable.fromWeb((await opened.stream(0, size - 1)) as import("node:stream/web").ReadableStream<Uint8Array>),
      };
      files++;
      bytes += size;
    }
  }
  yield textEntry("end.json", `${JSON.stringify({ files, bytes, completedAt: new Date().toISOString() })}\n`);
}

/**
 * Takes a backup of this server's data: the database snapshot first (into a temporary folder,
 * within one transaction), then a gzipped tar streamed as it is read, the files never whole in
 * memory. The temporary folder goes when the stream ends, fails or is abandoned.
 */
export async function backupArchive(): Promise<{ body: ReadableStream<Uint8Array>; filename: string }> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "x3d-backup-"));
  const cleanUp = () => fsp.rm(dir, { recursive: true, force: true });
  let manifest: BackupManifest;
  try {
    const snapshot = await snapshotDatabase(dir);
    const env = serverEnv();
    manifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      app: appVersion(),
      database: snapshot.kind,
      migrations: snapshot.migrations,
      tables: snapshot.tables,
      storage: env.X3D_STORAGE ? { kind: "s3", location: env.X3D_STORAGE } : { kind: "local" },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const gzip = createGzip();
  const source = Readable.from(tarBlocks(entries(dir, manifest)));
  pipeline(source, gzip)
    .catch((error: unknown) => log.warn({ err: error }, "backup: the archive was cut short (the client went away, or a read failed)"))
    .finally(() => void cleanUp());
  const stamp = manifest.createdAt.replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return { body: Readable.toWeb(gzip) as ReadableStream<Uint8Array>, filename: `x3d-${stamp}.tar.gz` };
}
