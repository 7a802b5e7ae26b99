// A backup archive made by lib/ops/backup.ts, read back by scripts/restore.mjs into a fresh
// DATA_DIR: every row of every table, every stored file and the generated secrets come back
// equal, scratch files stay out, the sequences continue past the restored rows, and a second
// restore into the now full DATA_DIR is refused without a change.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "@/lib/db/test-database.test-helpers";
import { createDatabase } from "@/test/harness/server";
import { tempDir } from "@/test/harness/temp-dir";
import { inspectArchive, readArchive } from "../../scripts/backup/archive.mjs";

const work = tempDir("ops-backup");
const restored = path.join(work, "restored");
const older = path.join(work, "older");
const newer = path.join(work, "newer");
/** A DATA_DIR with no targets entry: restored into the embedded database in either run. */
const locked = path.join(work, "locked");
const archive = path.join(work, "backup.tar.gz");
let testDb: Awaited<ReturnType<typeof openTestDatabase>>;
let source = "";

const TASK = "i3d_20261127_0123456789abcdef01234567";
const FILES: Record<string, string> = {
  "studio/uploads/up1": "an upload",
  "studio/results/t1/result.glb": "glTF result bytes",
  "studio/results/t1/cover.png": "",
  [`engine/tasks/${TASK}/cover.png`]: "a cover",
};
/** Scratch and half-written files: never in a backup. */
const SCRATCH = [
  "studio/uploads/incoming/x.bin",
  "studio/downloads/y.glb",
  "studio/results/t1/display.glb.abc123.part",
  "engine/staging/1-a.b/z",
];

/** Every row of every public table, as sorted JSON text per table. */
async function everyRow(query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>): Promise<Record<string, string[]>> {
  const tables = (await query("select tablename from pg_tables where schemaname = 'public' order by tablename")).rows.map(
    (r) => r.tablename as string,
  );
  const out: Record<string, string[]> = {};
  for (const table of tables)
    out[table] = (await query(`select row_to_json(t)::text as r from "${table}" t`)).rows.map((r) => r.r as string).sort();
  return out;
}

/** The databases restored into: fresh PostgreSQL databases in the PostgreSQL run, else PGlite under each DATA_DIR. */
const targets: Record<string, { url: string; drop: () => Promise<void> }> = {};

function restore(dataDir: string, file = archive) {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: dataDir };
  if (process.env.X3D_PGLITE_TEMPLATE) env.X3D_PGLITE_TEMPLATE = process.env.X3D_PGLITE_TEMPLATE;
  const target = targets[dataDir];
  if (target) env.DATABASE_URL = target.url;
  return spawnSync(process.execPath, ["scripts/restore.mjs", file], { env: env as NodeJS.ProcessEnv, encoding: "utf8" });
}

/** The archive rewritten with its manifest changed by `edit` (an older or a newer release's, say). */
async function rewritten(to: string, edit: (manifest: Record<string, unknown>) => Record<string, unknown>): Promise<string> {
  const entries: { path: string; bytes: Buffer; mtime: Date }[] = [];
  await readArchive(archive, async (entry: NodeJS.ReadableStream & { path: string; mtime: Date }) => {
    // In the archive's order: entries are read at once, and a small one may be whole before a larger one before it.
    const at = entries.push({ path: entry.path, bytes: Buffer.alloc(0), mtime: entry.mtime }) - 1;
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(Buffer.from(chunk as Buffer));
    let bytes = Buffer.concat(chunks);
    if (entry.path === "manifest.json")
      bytes = Buffer.from(JSON.stringify(edit(JSON.parse(bytes.toString("utf8")) as Record<string, unknown>)));
    entries[at] = { path: entry.path, bytes, mtime: entry.mtime };
  });
  const { tarBlocks } = await import("./tar");
  const blocks: Buffer[] = [];
  const list = async function* () {
    for (const e of entries) yield { path: e.path, size: e.bytes.length, mtime: e.mtime, body: [e.bytes] };
  };
  for await (const block of tarBlocks(list())) blocks.push(block);
  fs.writeFileSync(to, zlib.gzipSync(Buffer.concat(blocks)));
  return to;
}

beforeAll(async () => {
  testDb = await openTestDatabase("ops-backup-source");
  source = process.env.DATA_DIR as string;
  const { db } = await import("@/lib/db");
  const { sql } = await import("drizzle-orm");
  const database = await db();
  await database.execute(
    sql`insert into users (id, email, name, password_hash) values ('u1', 'ann@example.com', ${'Ann "the" O\'Neil\nline two ✓'}, 'scrypt$x')`,
  );
  await database.execute(sql`insert into users (id, email) values ('u2', 'bob@example.com')`);
  await database.execute(sql`insert into engine_clients (id, secret_hash, balance) values ('c1', 'h', 9007199254740)`);
  await database.execute(sql`insert into studio_tasks (id, user_id, kind, options, inputs, state, state_times, result_file)
    values ('t1', 'u1', 'image-to-3d', ${JSON.stringify({ model: "x3dv1.5", nested: { a: [1, 2.5, null, "é"] } })}::jsonb, '{}'::jsonb, 'success', '{"success":"2026-11-27T00:00:00.123Z"}'::jsonb, 'results/t1/result.glb')`);
  await database.execute(sql`insert into shares (token, task_id, user_id) values ('s1', 't1', 'u1')`);
  await database.execute(sql`insert into sessions (id, user_id) values ('session-1', 'u1')`);
  for (const [kind, amount, actor] of [
    ["grant", 500, null],
    ["charge", -5, null],
    ["grant", 250, "u2"],
  ] as const)
    await database.execute(
      sql`insert into credit_ledger (user_id, kind, amount, task_id, actor_id) values ('u1', ${kind}, ${amount}, ${kind === "charge" ? "t1" : null}, ${actor})`,
    );
  const { fileStore } = await import("@/lib/files/store");
  for (const [key, text] of Object.entries(FILES)) await fileStore().putBytes(key, new TextEncoder().encode(text));
  for (const key of SCRATCH) {
    fs.mkdirSync(path.dirname(path.join(source, key)), { recursive: true });
    fs.writeFileSync(path.join(source, key), "scratch");
  }
  fs.writeFileSync(path.join(source, "auth-secret"), "the-session-key-0123456789");
  const { opsToken } = await import("./ops-token");
  opsToken();
  if (process.env.DATABASE_URL) for (const dir of [restored, older, newer]) targets[dir] = await createDatabase();
}, 120_000);

afterAll(async () => {
  await testDb?.dispose();
  for (const target of Object.values(targets)) await target.drop();
});

/** Runs `work` with a query function on the database restored into `dataDir` (or its PostgreSQL database). */
async function onRestored<T>(
  dataDir: string,
  work: (query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>) => Promise<T>,
): Promise<T> {
  const target = targets[dataDir];
  if (target) {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      return await work((q) => client.query(q));
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const copy = await PGlite.create(path.join(dataDir, "pglite"));
  try {
    return await work((q) => copy.query(q));
  } finally {
    await copy.close();
  }
}

/** Every row of the source database, as the restored ones are compared with. */
async function sourceRows(): Promise<Record<string, string[]>> {
  const { db } = await import("@/lib/db");
  const { sql } = await import("drizzle-orm");
  const database = await db();
  return everyRow(async (q) => (await database.execute(sql.raw(q))) as unknown as { rows: Record<string, unknown>[] });
}

const MIGRATION_COUNT = fs.readdirSync("lib/db/migrations").filter((f) => f.endsWith(".sql")).length;

describe("a backup archive", () => {
  it("holds the manifest, every table's rows, the files and the secrets, and nothing of the scratch space", async () => {
    const { backupArchive } = await import("./backup");
    const { body, filename } = await backupArchive();
    expect(filename).toMatch(/^x3d-\d{8}T\d{6}Z\.tar\.gz$/);
    fs.writeFileSync(archive, new Uint8Array(await new Response(body).arrayBuffer()));
    const held = await inspectArchive(archive);
    expect(held.manifest).toMatchObject({ format: 1, database: testDb.kind, storage: { kind: "local" } });
    expect(held.manifest.migrations.count).toBe(fs.readdirSync("lib/db/migrations").filter((f: string) => f.endsWith(".sql")).length);
    expect(held.rows).toMatchObject({ users: 2, studio_tasks: 1, shares: 1, credit_ledger: 3, engine_clients: 1 });
    expect(held.files).toBe(Object.keys(FILES).length);
    expect(held.bytes).toBe(Object.values(FILES).join("").length);
    expect(held.secrets.sort()).toEqual(["auth-secret", "ops-token"]);
  });

  it("restores into an empty DATA_DIR: rows, files and secrets equal, sequences past the rows", async () => {
    const result = restore(restored);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/is in .*restored/);
    const before = await sourceRows();

    for (const [key, text] of Object.entries(FILES)) expect(fs.readFileSync(path.join(restored, key), "utf8")).toBe(text);
    for (const key of SCRATCH) expect(fs.existsSync(path.join(restored, key)), key).toBe(false);
    for (const name of ["auth-secret", "ops-token"])
      expect(fs.readFileSync(path.join(restored, name), "utf8")).toBe(fs.readFileSync(path.join(source, name), "utf8"));
    expect(fs.statSync(path.join(restored, "ops-token")).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(restored).filter((n) => n.startsWith(".restore-"))).toEqual([]);

    await onRestored(restored, async (query) => {
      expect(await everyRow(query)).toEqual(before);
      const migrations = await query("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(migrations.rows[0]?.n).toBe(MIGRATION_COUNT);
      const next = await query("insert into credit_ledger (user_id, kind, amount) values ('u2', 'grant', 1) returning id::int as id");
      const max = (before.credit_ledger ?? []).map((r) => (JSON.parse(r) as { id: number }).id).reduce((a, b) => Math.max(a, b), 0);
      expect(next.rows[0]?.id).toBe(max + 1);
    });
  }, 120_000);

  it("is refused, changing nothing, by a DATA_DIR (and database) already restored into", async () => {
    const listing = () =>
      fs
        .readdirSync(restored, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => {
          const full = path.join(e.parentPath, e.name);
          const stat = fs.statSync(full);
          return `${path.relative(restored, full)} ${stat.size} ${stat.mtimeMs}`;
        })
        .sort();
    const before = listing();
    const result = restore(restored);
    expect(result.status).toBe(1);
    const target = targets[restored];
    if (target) expect(result.stderr).not.toMatch(/pglite/);
    else expect(result.stderr).toMatch(/already holds an embedded database \(pglite\/\)/);
    expect(result.stderr).toMatch(/already holds stored files/);
    expect(listing()).toEqual(before);
    if (target) {
      // Only the database stands in the way: DATA_DIR's contents moved away, the restore still refuses.
      const aside = `${restored}-aside`;
      fs.renameSync(restored, aside);
      const again = restore(restored);
      expect(again.status).toBe(1);
      expect(again.stderr).toMatch(/the database of DATABASE_URL is not empty \(tables credit_ledger, /);
      expect(fs.existsSync(restored)).toBe(false);
      fs.renameSync(aside, restored);
    }
  }, 60_000);

  it("into an empty DATA_DIR a live process holds (a server starting on it) is refused, naming that process, and leaves its lock", async () => {
    fs.mkdirSync(locked, { recursive: true });
    const { processStart } = await import("@/lib/db/data-dir-lock.mjs");
    const lock = JSON.stringify({
      pid: process.pid,
      by: "server",
      started: processStart(process.pid)?.started ?? null,
      host: "h",
      at: "t",
    });
    fs.writeFileSync(path.join(locked, "pglite.lock"), lock);
    const result = restore(locked);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `restore: ${locked} is in use: its embedded database is open in another process (pid ${process.pid}, server,`,
    );
    expect(fs.readdirSync(locked)).toEqual(["pglite.lock"]);
    expect(fs.readFileSync(path.join(locked, "pglite.lock"), "utf8")).toBe(lock);
  }, 60_000);

  it("of an older release (fewer migrations) restores into this one, which applies the rest after the rows", async () => {
    const { readMigrations } = await import("../../scripts/backup/schema.mjs");
    const hashes = readMigrations("lib/db/migrations").map((m: { hash: string }) => m.hash);
    // Taken before 0008 added sessions.user_agent and last_seen_at: those keys are not in its schema.
    const file = await rewritten(path.join(work, "older.tar.gz"), (m) => ({ ...m, migrations: { count: 8, hashes: hashes.slice(0, 8) } }));
    const result = restore(older, file);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/then 2 newer migrations/);
    const before = await sourceRows();
    await onRestored(older, async (query) => {
      expect(await everyRow(query)).toEqual(before);
      const applied = await query("select hash from drizzle.__drizzle_migrations order by id");
      expect(applied.rows.map((r) => r.hash)).toEqual(hashes);
    });
  }, 120_000);

  it("of a newer release is refused with a sentence, before anything is written", async () => {
    const { readMigrations } = await import("../../scripts/backup/schema.mjs");
    const hashes = readMigrations("lib/db/migrations").map((m: { hash: string }) => m.hash);
    const file = await rewritten(path.join(work, "newer.tar.gz"), (m) => ({
      ...m,
      app: { name: "x3d-studio", version: "9.9.9" },
      migrations: { count: hashes.length + 1, hashes: [...hashes, "f".repeat(64)] },
    }));
    const result = restore(newer, file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `restore: the archive was made by a newer release (9.9.9, ${hashes.length + 1} database migrations; this one has ${hashes.length}): restore it with that release or a later one`,
    );
    expect(fs.existsSync(newer)).toBe(false);
    const target = targets[newer];
    if (target)
      await onRestored(newer, async (query) =>
        expect((await query("select count(*)::int as n from pg_tables where schemaname = 'public'")).rows[0]?.n).toBe(0),
      );
  }, 60_000);
});
