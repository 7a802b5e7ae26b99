// Reading a backup archive (the gzipped tar GET /api/ops/backup streams, lib/ops/backup.ts) for
// `npm run backup` (which checks what it saved) and `npm run restore`. Plain ES modules: the
// scripts run without the app's TypeScript.
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { Parser } from "tar";

/** The archive format this release reads (lib/ops/backup.ts BACKUP_FORMAT). */
export const BACKUP_FORMAT = 1;

/** A stored file's key: `/`-separated plain names (lib/files/store/types.ts checkKey). */
const KEY_NAME = /^(?!\.\.?$)[A-Za-z0-9._-]+$/;
const TABLE = /^[a-z_][a-z0-9_]*$/;
const SECRETS = ["auth-secret", "x3d-credentials.json", "ops-token"];

/**
 * What an entry of the archive is, by its name; throws for anything else, so an archive that is
 * not ours, or one naming a place outside DATA_DIR (`files/../x`), is refused before any write.
 */
export function entryKind(name) {
  if (name === "manifest.json" || name === "end.json" || name === "files-manifest.jsonl") return { kind: name };
  const db = /^db\/(.+)\.jsonl$/.exec(name);
  if (db && TABLE.test(db[1])) return { kind: "table", table: db[1] };
  const secret = /^secrets\/(.+)$/.exec(name);
  if (secret && SECRETS.includes(secret[1])) return { kind: "secret", name: secret[1] };
  const file = /^files\/(.+)$/.exec(name);
  if (file && file[1].length <= 512 && file[1].split("/").every((n) => KEY_NAME.test(n))) return { kind: "file", key: file[1] };
  throw new Error(`the archive holds an entry this release does not know: ${JSON.stringify(name)}`);
}

/**
 * Reads the archive at `file` entry by entry: `onEntry(entry, kind)` must consume the entry (pipe
 * it, or read it) and may return a promise, awaited before the archive is done. Only plain files
 * are accepted.
 */
export async function readArchive(file, onEntry) {
  const pending = [];
  let failure;
  const parser = new Parser({
    strict: true,
    onReadEntry(entry) {
      try {
        if (entry.type !== "File") throw new Error(`the archive holds a ${entry.type} (${entry.path}); a backup holds only files`);
        pending.push(Promise.resolve(onEntry(entry, entryKind(entry.path))).catch((error) => (failure ??= error)));
      } catch (error) {
        failure ??= error;
        entry.resume();
      }
    },
  });
  try {
    await pipeline(fs.createReadStream(file), parser);
  } catch (error) {
    throw new Error(`${file} is not a whole backup archive (${error.message})`);
  }
  await Promise.all(pending);
  if (failure) throw failure;
}

/** An entry's text. */
export function entryText(entry) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    entry.on("data", (chunk) => chunks.push(chunk));
    entry.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    entry.on("error", reject);
  });
}

/** How many lines an entry has (rows of a table), counted as it streams by. */
export function entryLines(entry) {
  return new Promise((resolve, reject) => {
    let lines = 0;
    entry.on("data", (chunk) => {
      for (const byte of chunk) if (byte === 10) lines++;
    });
    entry.on("end", () => resolve(lines));
    entry.on("error", reject);
  });
}

/** The archive's manifest, its first entry: read, then the rest of the archive is left unread. */
export async function readManifest(file) {
  const source = fs.createReadStream(file);
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (error, value) => {
      if (settled) return;
      settled = true;
      source.destroy();
      if (error) reject(error);
      else resolve(value);
    };
    let first = true;
    const parser = new Parser({
      onReadEntry(entry) {
        // Entries after the first may be parsed before the first is read: only the first counts.
        if (!first) return entry.resume();
        first = false;
        if (entry.path !== "manifest.json") {
          entry.resume();
          return done(new Error(`${file} is not an x3d backup: its first entry is ${JSON.stringify(entry.path)}, not manifest.json`));
        }
        entryText(entry).then((text) => {
          try {
            done(null, JSON.parse(text));
          } catch {
            done(new Error(`${file}: manifest.json is not JSON`));
          }
        }, done);
      },
    });
    parser.on("error", (error) => done(new Error(`${file} is not a backup archive (${error.message})`)));
    parser.on("end", () => done(new Error(`${file} is not an x3d backup: it has no manifest.json`)));
    source.on("error", (error) => done(error));
    source.pipe(parser);
  });
}

/**
 * Checks a manifest against this release's migrations (their hashes, oldest first); throws a
 * sentence saying what does not fit. An archive with fewer migrations is fine: the restore
 * applies the rest.
 */
export function checkManifest(manifest, ourHashes) {
  if (!manifest || typeof manifest !== "object") throw new Error("the archive's manifest.json is not an object");
  if (manifest.format !== BACKUP_FORMAT)
    throw new Error(`the archive is of format ${JSON.stringify(manifest.format)}; this release reads format ${BACKUP_FORMAT}`);
  const migrations = manifest.migrations;
  if (
    !migrations ||
    !Number.isInteger(migrations.count) ||
    !Array.isArray(migrations.hashes) ||
    migrations.hashes.length !== migrations.count
  )
    throw new Error("the archive's manifest.json has no migrations list (count and hashes)");
  if (migrations.count > ourHashes.length)
    throw new Error(
      `the archive was made by a newer release (${manifest.app?.version ?? "unknown"}, ${migrations.count} database migrations; this one has ${ourHashes.length}): restore it with that release or a later one`,
    );
  migrations.hashes.forEach((hash, i) => {
    if (hash !== ourHashes[i])
      throw new Error(
        `the archive's database migration ${i + 1} is not this release's (hash ${hash.slice(0, 12)}…): it comes from another line of releases`,
      );
  });
  if (!manifest.tables || typeof manifest.tables !== "object") throw new Error("the archive's manifest.json has no tables");
  for (const [table, rows] of Object.entries(manifest.tables)) {
    if (!TABLE.test(table))
      throw new Error(`the archive's manifest.json names a table this release does not know: ${JSON.stringify(table)}`);
    if (!Number.isInteger(rows) || rows < 0) throw new Error(`the archive's manifest.json gives ${table} ${JSON.stringify(rows)} rows`);
  }
  const storage = manifest.storage?.kind;
  if (storage !== "local" && storage !== "s3") throw new Error(`the archive's manifest.json names storage ${JSON.stringify(storage)}`);
}

/**
 * What an archive holds, read through once: the manifest, rows per table (counted), the secrets,
 * files and bytes; throws when it is cut short (no end.json) or its counts disagree with its manifest.
 */
export async function inspectArchive(file) {
  /** @type {any} */
  let manifest;
  /** @type {any} */
  let end;
  const rows = {};
  const secrets = [];
  let files = 0;
  let bytes = 0;
  await readArchive(file, async (entry, what) => {
    if (what.kind === "manifest.json") manifest = JSON.parse(await entryText(entry));
    else if (what.kind === "end.json") end = JSON.parse(await entryText(entry));
    else if (what.kind === "table") rows[what.table] = await entryLines(entry);
    else if (what.kind === "files-manifest.jsonl") {
      for (const line of (await entryText(entry)).split("\n").filter(Boolean)) {
        files++;
        bytes += JSON.parse(line).size;
      }
    } else {
      if (what.kind === "secret") secrets.push(what.name);
      else {
        files++;
        bytes += entry.size;
      }
      entry.resume();
    }
  });
  if (!manifest) throw new Error(`${file} is not an x3d backup: it has no manifest.json`);
  if (!end) throw new Error(`${file} is cut short: it has no end.json (the backup did not finish; take it again)`);
  checkCounts(manifest, rows, end, { files, bytes });
  return { manifest, rows, secrets, files, bytes };
}

/** Whether the rows and files found agree with the manifest and end.json. */
export function checkCounts(manifest, rows, end, found) {
  for (const [table, expected] of Object.entries(manifest.tables)) {
    if (rows[table] !== expected) throw new Error(`the archive's ${table} has ${rows[table] ?? "no"} rows; its manifest says ${expected}`);
  }
  for (const table of Object.keys(rows))
    if (!(table in manifest.tables)) throw new Error(`the archive holds rows of ${table}, which its manifest does not name`);
  if (end.files !== found.files || end.bytes !== found.bytes)
    throw new Error(`the archive holds ${found.files} files (${found.bytes} bytes); its end.json says ${end.files} (${end.bytes} bytes)`);
}

/** A line for people: "12 tables, 345 rows (users 3, studio_tasks 12, …)". */
export function describeArchive({ manifest, rows, secrets, files, bytes }) {
  const total = Object.values(rows).reduce((a, b) => a + b, 0);
  const tables = Object.entries(rows)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${t} ${n}`)
    .join(", ");
  const where =
    manifest.storage.kind === "s3"
      ? `${files} file keys (${bytes} bytes) kept in ${manifest.storage.location}`
      : `${files} files (${bytes} bytes)`;
  return [
    `taken ${manifest.createdAt} by ${manifest.app?.name ?? "x3d-studio"} ${manifest.app?.version ?? ""} on ${manifest.database}, ${manifest.migrations.count} migrations`,
    `database: ${Object.keys(rows).length} tables, ${total} rows${tables ? ` (${tables})` : ""}`,
    `files: ${where}`,
    `secrets: ${secrets.length ? secrets.join(", ") : "none (set in the environment)"}`,
  ].join("\n");
}
