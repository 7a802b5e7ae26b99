// `npm run restore -- <archive> [--allow-missing]`: puts a backup (`npm run backup`,
// docs/operations.md#backups) into an empty DATA_DIR and database, with the server stopped. It
// reads the same settings as the server (DATA_DIR, DATABASE_URL, X3D_STORAGE and the AWS_*
// variables): run it with the environment the server will start with.
//
// Refused, changing nothing, when DATA_DIR holds a database, stored files or secrets, or the
// database has tables; or when the archive comes from a newer release. Otherwise: the archive is
// unpacked beside DATA_DIR's contents, the database is filled in one transaction (the archive's
// schema, its rows, then this release's later migrations), and the files and secrets are moved
// into place. With X3D_STORAGE the files stay in the bucket: each key of the archive is checked
// there, and missing ones fail the restore unless --allow-missing.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { checkCounts, checkManifest, entryText, readArchive, readManifest } from "./backup/archive.mjs";
import { dataDirContents, dataDirOf } from "./backup/data-dir.mjs";
import { databaseContents, openDatabase, restoreDatabase } from "./backup/database.mjs";
import { manifestFiles, missingObjects } from "./backup/s3.mjs";
import { readMigrations } from "./backup/schema.mjs";
import { lockDataDir } from "../lib/db/data-dir-lock.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MIGRATIONS = path.join(ROOT, "lib/db/migrations");

const args = process.argv.slice(2);
const allowMissing = args.includes("--allow-missing");
const archive = args.find((a) => !a.startsWith("--"));

function fail(message) {
  console.error(`restore: ${message}`);
  process.exit(1);
}

if (!archive) fail("name the archive: npm run restore -- backups/x3d-<time>.tar.gz");
if (!fs.existsSync(archive)) fail(`${archive} does not exist`);

const env = process.env;
const dataDir = dataDirOf(env);
const databaseUrl = env.DATABASE_URL || undefined;
const storage = env.X3D_STORAGE || undefined;

try {
  await restore();
} catch (error) {
  fail(error.message);
}

async function restore() {
  const manifest = await readManifest(archive);
  const migrations = readMigrations(MIGRATIONS);
  checkManifest(
    manifest,
    migrations.map((m) => m.hash),
  );
  if (manifest.storage.kind === "s3" && !storage)
    throw new Error(
      `the archive's files are in a bucket (${manifest.storage.location}), not in it: set X3D_STORAGE (and the AWS_* variables) as the server will have them`,
    );
  if (manifest.storage.kind === "local" && storage)
    throw new Error(`the archive holds its files, and X3D_STORAGE is set (${storage}): restore without X3D_STORAGE (files into DATA_DIR)`);

  // Nothing is written before these checks pass.
  const notEmpty = dataDirContents(dataDir, { embedded: !databaseUrl, localFiles: !storage });
  if (notEmpty.length) throw new Error(notEmpty.join("; "));
  if (databaseUrl) {
    const db = await openDatabase({ databaseUrl });
    try {
      const { tables, migrations: migrated } = await databaseContents(db);
      if (tables.length || migrated)
        throw new Error(
          `the database of DATABASE_URL is not empty (${tables.length ? `tables ${tables.slice(0, 5).join(", ")}${tables.length > 5 ? ", …" : ""}` : "drizzle's migrations table"}): restore into an empty database`,
        );
    } finally {
      await db.close();
    }
  }

  fs.mkdirSync(dataDir, { recursive: true });
  // The embedded database is filled with DATA_DIR locked, as a server locks it: a server started meanwhile is refused.
  const unlock = databaseUrl ? () => {} : lockDataDir(dataDir, "restore");
  try {
    await restoreInto(manifest, migrations);
  } finally {
    unlock();
  }
}

async function restoreInto(manifest, migrations) {
  const staging = path.join(dataDir, `.restore-${crypto.randomBytes(6).toString("hex")}`);
  const pgliteDir = path.join(dataDir, "pglite");
  let createdDatabase = false;
  try {
    const unpacked = await unpack(staging, manifest);
    if (storage) {
      const missing = await missingObjects(unpacked.bucketFiles, storage, {
        forcePathStyle: env.X3D_S3_FORCE_PATH_STYLE === "1" || env.X3D_S3_FORCE_PATH_STYLE === "true",
      });
      if (missing.length) {
        const list = missing
          .slice(0, 20)
          .map((m) => `  ${m.key}: ${m.why}`)
          .join("\n");
        const message = `${missing.length} of the archive's ${unpacked.bucketFiles.length} files are missing from ${storage}:\n${list}${missing.length > 20 ? "\n  …" : ""}`;
        if (!allowMissing) throw new Error(`${message}\n(--allow-missing restores anyway: their tasks show without those files)`);
        console.warn(`restore: ${message}`);
      }
    }

    createdDatabase = !databaseUrl;
    const db = await openDatabase({ databaseUrl, pgliteDir, template: env.X3D_PGLITE_TEMPLATE || undefined });
    let loaded;
    try {
      loaded = await restoreDatabase(db, {
        migrations,
        count: manifest.migrations.count,
        tables: manifest.tables,
        tableFile: (table) => path.join(staging, "db", `${table}.jsonl`),
      });
    } finally {
      await db.close();
    }
    // The database is in: from here on, a failure leaves it (files can be moved in by hand from the staging folder).
    createdDatabase = false;
    moveInto(path.join(staging, "secrets"), dataDir);
    moveInto(path.join(staging, "files"), dataDir);
    fs.rmSync(staging, { recursive: true, force: true });

    const rows = Object.values(loaded).reduce((a, b) => a + b, 0);
    const applied = migrations.length - manifest.migrations.count;
    console.log(
      [
        `restore: ${archive} (taken ${manifest.createdAt} by ${manifest.app?.version ?? "?"} on ${manifest.database}) is in ${dataDir}`,
        `  database: ${databaseUrl ? "DATABASE_URL" : "embedded (pglite/)"}, ${Object.keys(loaded).length} tables, ${rows} rows${applied ? `, then ${applied} newer migrations` : ""}`,
        `  files: ${storage ? `${unpacked.bucketFiles.length} keys checked in ${storage}` : `${unpacked.files} files (${unpacked.bytes} bytes)`}`,
        `  secrets: ${unpacked.secrets.length ? unpacked.secrets.join(", ") : "none in the archive (set in the environment)"}`,
        "Start the server: tasks that were running when the backup was taken run again.",
      ].join("\n"),
    );
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (createdDatabase) fs.rmSync(pgliteDir, { recursive: true, force: true });
    throw error;
  }
}

/** Unpacks the archive into `staging` (db/, secrets/, files/), checking it is whole and its counts agree with its manifest. */
async function unpack(staging, manifest) {
  const rows = {};
  const secrets = [];
  let end;
  let bucketFiles = [];
  let files = 0;
  let bytes = 0;
  const into = async (entry, relative) => {
    const target = path.join(staging, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    await pipeline(entry, fs.createWriteStream(target, { mode: 0o600 }));
    if (entry.mtime) fs.utimesSync(target, entry.mtime, entry.mtime);
  };
  await readArchive(archive, async (entry, what) => {
    switch (what.kind) {
      case "manifest.json":
        return entry.resume();
      case "end.json":
        end = JSON.parse(await entryText(entry));
        return;
      case "files-manifest.jsonl":
        bucketFiles = manifestFiles(await entryText(entry));
        files += bucketFiles.length;
        bytes += bucketFiles.reduce((a, f) => a + f.size, 0);
        return;
      case "table": {
        const target = path.join(staging, "db", `${what.table}.jsonl`);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        let lines = 0;
        const count = new Transform({
          transform(chunk, _encoding, done) {
            for (const byte of chunk) if (byte === 10) lines++;
            done(null, chunk);
          },
        });
        await pipeline(entry, count, fs.createWriteStream(target, { mode: 0o600 }));
        rows[what.table] = lines;
        return;
      }
      case "secret":
        secrets.push(what.name);
        return into(entry, path.join("secrets", what.name));
      case "file":
        files++;
        bytes += entry.size;
        return into(entry, path.join("files", ...what.key.split("/")));
    }
  });
  if (!end) throw new Error(`${archive} is cut short: it has no end.json (the backup did not finish; take another)`);
  checkCounts(manifest, rows, end, { files, bytes });
  return { secrets, bucketFiles, files, bytes };
}

/** Moves every file under `from` to the same place under `to` (one file system: renames). */
function moveInto(from, to) {
  if (!fs.existsSync(from)) return;
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(target, { recursive: true });
      moveInto(source, target);
    } else {
      if (fs.existsSync(target)) throw new Error(`${target} appeared while restoring: is a server running on ${dataDir}?`);
      fs.renameSync(source, target);
    }
  }
}
