// A backup archive made by lib/ops/backup.ts, read back by scripts/restore.mjs into a fresh
// DATA_DIR: every row of every table, every stored file and the generated secrets come back
// equal, scratch files stay out, the sequences continue past the restored rows, and a second
// restore into the now full DATA_DIR is refused without a change.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "@/lib/db/test-database.test-helpers";
import { createDatabase } from "@/test/harness/server";
import { tempDir } from "@/test/harness/temp-dir";
import { inspectArchive } from "../../scripts/backup/archive.mjs";

const work = tempDir("ops-backup");
const restored = path.join(work, "restored");
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

/** The database restored into: a fresh PostgreSQL database in the PostgreSQL run, else PGlite under `restored`. */
let target: { url: string; drop: () => Promise<void> } | undefined;

function restore(dataDir: string) {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: dataDir };
  if (process.env.X3D_PGLITE_TEMPLATE) env.X3D_PGLITE_TEMPLATE = process.env.X3D_PGLITE_TEMPLATE;
  if (target) env.DATABASE_URL = target.url;
  return spawnSync(process.execPath, ["scripts/restore.mjs", archive], { env: env as NodeJS.ProcessEnv, encoding: "utf8" });
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
  if (process.env.DATABASE_URL) target = await createDatabase();
}, 120_000);

afterAll(async () => {
  await testDb?.dispose();
  await target?.drop();
});

/** Runs `work` with a query function on the restored database. */
async function onRestored<T>(work: (query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>) => Promise<T>): Promise<T> {
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
  const copy = await PGlite.create(path.join(restored, "pglite"));
  try {
    return await work((q) => copy.query(q));
  } finally {
    await copy.close();
  }
}

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
    const { db } = await import("@/lib/db");
    const { sql } = await import("drizzle-orm");
    const database = await db();
    const before = await everyRow(async (q) => (await database.execute(sql.raw(q))) as unknown as { rows: Record<string, unknown>[] });

    for (const [key, text] of Object.entries(FILES)) expect(fs.readFileSync(path.join(restored, key), "utf8")).toBe(text);
    for (const key of SCRATCH) expect(fs.existsSync(path.join(restored, key)), key).toBe(false);
    for (const name of ["auth-secret", "ops-token"])
      expect(fs.readFileSync(path.join(restored, name), "utf8")).toBe(fs.readFileSync(path.join(source, name), "utf8"));
    expect(fs.statSync(path.join(restored, "ops-token")).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(restored).filter((n) => n.startsWith(".restore-"))).toEqual([]);

    await onRestored(async (query) => {
      expect(await everyRow(query)).toEqual(before);
      const migrations = await query("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(migrations.rows[0]?.n).toBe(fs.readdirSync("lib/db/migrations").filter((f) => f.endsWith(".sql")).length);
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
});
