// The pure pieces of `npm run backup` and `npm run restore` (scripts/backup/*.mjs): which archive
// entries are accepted, the manifest's checks, the migrations as drizzle reads them, the
// order tables load in, and what in DATA_DIR stops a restore.
import fs from "node:fs";
import path from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { describe, expect, it } from "vitest";
import { backedUp } from "@/lib/ops/backup";
import { checkCounts, checkManifest, entryKind } from "../scripts/backup/archive.mjs";
import { dataDirContents, opsTokenOf } from "../scripts/backup/data-dir.mjs";
import { loadOrder, readMigrations } from "../scripts/backup/schema.mjs";
import { tempDir } from "./harness/temp-dir";

const MIGRATIONS = path.resolve(import.meta.dirname, "../lib/db/migrations");
const ours = readMigrations(MIGRATIONS);
const hashes = ours.map((m: { hash: string }) => m.hash);

const manifest = (over: Record<string, unknown> = {}) => ({
  format: 1,
  createdAt: "2026-11-27T00:00:00.000Z",
  app: { name: "x3d-studio", version: "0.1.0" },
  database: "pglite",
  migrations: { count: hashes.length, hashes },
  tables: { users: 2, shares: 0 },
  storage: { kind: "local" },
  ...over,
});

describe("archive entries", () => {
  it("are the manifest, tables, known secrets and stored files by their keys", () => {
    expect(entryKind("manifest.json")).toEqual({ kind: "manifest.json" });
    expect(entryKind("end.json")).toEqual({ kind: "end.json" });
    expect(entryKind("files-manifest.jsonl")).toEqual({ kind: "files-manifest.jsonl" });
    expect(entryKind("db/credit_ledger.jsonl")).toEqual({ kind: "table", table: "credit_ledger" });
    expect(entryKind("secrets/auth-secret")).toEqual({ kind: "secret", name: "auth-secret" });
    expect(entryKind("files/studio/results/t1/result.glb")).toEqual({ kind: "file", key: "studio/results/t1/result.glb" });
  });

  it("refuse anything else, above all a name reaching outside DATA_DIR", () => {
    for (const bad of [
      "files/../etc/passwd",
      "files/studio/../../x",
      "files/a//b",
      "files/",
      "files/a b",
      "db/../x.jsonl",
      'db/us"ers.jsonl',
      "secrets/id_rsa",
      "secrets/../auth-secret",
      "etc/passwd",
      "/abs",
      `files/${"a".repeat(513)}`,
    ])
      expect(() => entryKind(bad), bad).toThrow(/an entry this release does not know/);
  });
});

describe("the manifest check", () => {
  it("takes an archive of this release, or of an older one (fewer migrations)", () => {
    expect(() => checkManifest(manifest(), hashes)).not.toThrow();
    expect(() => checkManifest(manifest({ migrations: { count: 3, hashes: hashes.slice(0, 3) } }), hashes)).not.toThrow();
  });

  it("refuses an archive of a newer release, naming both counts", () => {
    const newer = manifest({ app: { version: "9.0.0" }, migrations: { count: hashes.length + 1, hashes: [...hashes, "f".repeat(64)] } });
    expect(() => checkManifest(newer, hashes)).toThrow(
      `the archive was made by a newer release (9.0.0, ${hashes.length + 1} database migrations; this one has ${hashes.length}): restore it with that release or a later one`,
    );
  });

  it("refuses another line of migrations, another format, and manifests that say nothing", () => {
    const other = [...hashes];
    other[1] = "0".repeat(64);
    expect(() => checkManifest(manifest({ migrations: { count: other.length, hashes: other } }), hashes)).toThrow(
      /migration 2 is not this release's/,
    );
    expect(() => checkManifest(manifest({ format: 2 }), hashes)).toThrow(/format 2; this release reads format 1/);
    expect(() => checkManifest(manifest({ migrations: { count: 2, hashes: [hashes[0]] } }), hashes)).toThrow(/no migrations list/);
    expect(() => checkManifest(manifest({ tables: { "users; drop": 1 } }), hashes)).toThrow(/a table this release does not know/);
    expect(() => checkManifest(manifest({ tables: { users: -1 } }), hashes)).toThrow(/gives users -1 rows/);
    expect(() => checkManifest(manifest({ storage: { kind: "ftp" } }), hashes)).toThrow(/names storage "ftp"/);
    expect(() => checkManifest(null, hashes)).toThrow(/not an object/);
  });

  it("finds rows or files that do not match the manifest and end.json", () => {
    const m = manifest();
    expect(() => checkCounts(m, { users: 2, shares: 0 }, { files: 1, bytes: 5 }, { files: 1, bytes: 5 })).not.toThrow();
    expect(() => checkCounts(m, { users: 1, shares: 0 }, { files: 0, bytes: 0 }, { files: 0, bytes: 0 })).toThrow(
      "the archive's users has 1 rows; its manifest says 2",
    );
    expect(() => checkCounts(m, { users: 2 }, { files: 0, bytes: 0 }, { files: 0, bytes: 0 })).toThrow(/shares has no rows/);
    expect(() => checkCounts(m, { users: 2, shares: 0, extra: 1 }, { files: 0, bytes: 0 }, { files: 0, bytes: 0 })).toThrow(
      /rows of extra, which its manifest does not name/,
    );
    expect(() => checkCounts(m, { users: 2, shares: 0 }, { files: 2, bytes: 5 }, { files: 1, bytes: 5 })).toThrow(/holds 1 files/);
  });
});

describe("migrations", () => {
  it("are read as drizzle's migrator reads them: the same hashes, times and statements", () => {
    const drizzle = readMigrationFiles({ migrationsFolder: MIGRATIONS });
    expect(hashes).toEqual(drizzle.map((m) => m.hash));
    expect(ours.map((m: { when: number }) => m.when)).toEqual(drizzle.map((m) => m.folderMillis));
    expect(ours.map((m: { statements: string[] }) => m.statements.join(""))).toEqual(drizzle.map((m) => m.sql.join("")));
  });
});

describe("the load order", () => {
  it("puts every referenced table before the tables referring to it", () => {
    const references = [
      { table: "sessions", references: "users" },
      { table: "studio_tasks", references: "users" },
      { table: "shares", references: "studio_tasks" },
      { table: "shares", references: "users" },
      { table: "credit_ledger", references: "users" },
      { table: "engine_tasks", references: "engine_clients" },
      { table: "tree", references: "tree" },
    ];
    const tables = ["shares", "credit_ledger", "engine_tasks", "sessions", "studio_tasks", "users", "engine_clients", "tree", "misc"];
    const order: string[] = loadOrder(tables, references);
    expect([...order].sort()).toEqual([...tables].sort());
    for (const { table, references: target } of references)
      if (table !== target) expect(order.indexOf(target), `${target} before ${table}`).toBeLessThan(order.indexOf(table));
  });

  it("refuses a loop between tables", () => {
    expect(() =>
      loadOrder(
        ["a", "b", "c"],
        [
          { table: "a", references: "b" },
          { table: "b", references: "c" },
          { table: "c", references: "a" },
        ],
      ),
    ).toThrow(/refer to each other in a loop \(a → b → c → a\)/);
  });
});

describe("what a backup takes from the store", () => {
  it("is uploads, results, deleted-task markers and service tasks, never scratch or half-written files", () => {
    for (const key of ["studio/uploads/abc", "studio/results/t/result.glb", "studio/deleted/t", "engine/tasks/i3d_x/inputs/0.png"])
      expect(backedUp(key), key).toBe(true);
    for (const key of [
      "studio/uploads/incoming/abc",
      "studio/uploads/incoming",
      "studio/downloads/x.glb",
      "studio/.health-ab",
      "studio/results/t/display.glb.0a1b2c.part",
      "engine/staging/1-a.b/0.png",
      "engine/instances/1-a",
      "blobs/x",
    ])
      expect(backedUp(key), key).toBe(false);
  });
});

describe("DATA_DIR before a restore", () => {
  const root = tempDir("restore-target");
  const dir = (name: string, files: string[]) => {
    const d = path.join(root, name);
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(d, f)), { recursive: true });
      fs.writeFileSync(path.join(d, f), "x");
    }
    fs.mkdirSync(d, { recursive: true });
    return d;
  };

  it("may be missing, empty, or hold only scratch and empty folders", () => {
    expect(dataDirContents(path.join(root, "none"), { embedded: true, localFiles: true })).toEqual([]);
    const scratch = dir("scratch", ["studio/downloads/a", "engine/staging/x/y", "engine/instances/1-a"]);
    fs.mkdirSync(path.join(scratch, "studio/results/t"), { recursive: true });
    expect(dataDirContents(scratch, { embedded: true, localFiles: true })).toEqual([]);
  });

  it("is refused with a sentence for each of a database, stored files and secrets", () => {
    const full = dir("full", ["pglite/PG_VERSION", "studio/results/t/result.glb", "auth-secret"]);
    const found = dataDirContents(full, { embedded: true, localFiles: true });
    expect(found).toEqual([
      `${full} already holds an embedded database (pglite/): restore into an empty DATA_DIR, or move pglite/ away first`,
      `${full} already holds stored files (studio/results/t/result.glb): restore into an empty DATA_DIR`,
      `${full} already holds auth-secret: restore into an empty DATA_DIR (the archive's auth-secret would replace it)`,
    ]);
    // With DATABASE_URL a PGlite folder is not in the way; with a bucket, neither are local files.
    expect(dataDirContents(full, { embedded: false, localFiles: false })).toEqual([found[2]]);
  });

  it("gives its ops token to npm run backup: X3D_OPS_TOKEN first, else the file, else a sentence", () => {
    const d = dir("token", []);
    expect(() => opsTokenOf({ DATA_DIR: d })).toThrow(/no ops token: .*ops-token does not exist and X3D_OPS_TOKEN is not set/);
    fs.writeFileSync(path.join(d, "ops-token"), "from-the-file\n");
    expect(opsTokenOf({ DATA_DIR: d })).toBe("from-the-file");
    expect(opsTokenOf({ DATA_DIR: d, X3D_OPS_TOKEN: "from-the-env" })).toBe("from-the-env");
  });
});
