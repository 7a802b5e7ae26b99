// A backup with X3D_STORAGE (s3rver here): the archive lists the bucket's keys with their sizes
// and ETags instead of holding the bytes, and scripts/restore.mjs checks every one of them in the
// bucket: all there, it restores; one missing, it refuses naming the key and writes nothing,
// unless --allow-missing.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "@/lib/db/test-database.test-helpers";
import { S3_BUCKET, startS3, type TestS3 } from "@/test/harness/s3-server";
import { tempDir } from "@/test/harness/temp-dir";
import { inspectArchive, readArchive } from "../../scripts/backup/archive.mjs";

const work = tempDir("ops-backup-s3");
const s3Files = tempDir("ops-backup-s3-bucket");
const archive = path.join(work, "backup.tar.gz");
const STORAGE = `s3://${S3_BUCKET}/install`;
const KEYS = ["studio/uploads/up1", "studio/results/t1/result.glb", "engine/tasks/i3d_20261127_0123456789abcdef01234567/cover.png"];
let s3: TestS3;
let testDb: Awaited<ReturnType<typeof openTestDatabase>>;
const saved = { ...process.env };

/**
 * Runs scripts/restore.mjs. Not spawnSync: the bucket (s3rver) answers from this process, which
 * must keep running while the script asks it.
 */
function run(env: Record<string, string>, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/restore.mjs", archive, ...args], { env: env as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

function restore(dataDir: string, ...args: string[]) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    DATA_DIR: dataDir,
    X3D_STORAGE: STORAGE,
    ...s3.env,
  };
  if (process.env.X3D_PGLITE_TEMPLATE) env.X3D_PGLITE_TEMPLATE = process.env.X3D_PGLITE_TEMPLATE;
  return run(env, ...args);
}

beforeAll(async () => {
  s3 = await startS3(s3Files);
  Object.assign(process.env, s3.env, { X3D_STORAGE: STORAGE });
  // The restores below go to PGlite: DATABASE_URL stays unset even in the PostgreSQL run.
  delete process.env.X3D_TEST_DATABASE_URL;
  testDb = await openTestDatabase("ops-backup-s3-source");
  const { db } = await import("@/lib/db");
  const { sql } = await import("drizzle-orm");
  await (await db()).execute(sql`insert into users (id, email) values ('u1', 'ann@example.com')`);
  const { fileStore } = await import("@/lib/files/store");
  for (const key of KEYS) await fileStore().putBytes(key, new TextEncoder().encode(`bytes of ${key}`));
  await fileStore().putBytes("studio/uploads/incoming/partial", new TextEncoder().encode("scratch"));
}, 120_000);

afterAll(async () => {
  await testDb?.dispose();
  await s3?.close();
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  const { fileStore } = await import("@/lib/files/store");
  fs.rmSync(fileStore().scratchRoot(), { recursive: true, force: true });
});

describe("a backup with the files in a bucket", () => {
  it("lists each stored key with its size and ETag, and holds no file bytes", async () => {
    const { backupArchive } = await import("./backup");
    fs.writeFileSync(archive, new Uint8Array(await new Response((await backupArchive()).body).arrayBuffer()));
    const held = await inspectArchive(archive);
    expect(held.manifest.storage).toEqual({ kind: "s3", location: STORAGE });
    expect(held.files).toBe(KEYS.length);
    const names: string[] = [];
    let listed = "";
    await readArchive(archive, async (entry: NodeJS.ReadableStream & { path: string }) => {
      names.push(entry.path);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(Buffer.from(chunk as Buffer));
      if (entry.path === "files-manifest.jsonl") listed = Buffer.concat(chunks).toString("utf8");
    });
    expect(names.filter((n) => n.startsWith("files/"))).toEqual([]);
    const lines = listed
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { key: string; size: number; etag: string });
    expect(lines.map((l) => l.key).sort()).toEqual([...KEYS].sort());
    for (const line of lines) {
      expect(line.size).toBe(`bytes of ${line.key}`.length);
      expect(line.etag).toMatch(/^"[0-9a-f]+"$/);
    }
  });

  it("restores when the bucket has every key, and is refused by a DATA_DIR without X3D_STORAGE", async () => {
    const ok = await restore(path.join(work, "all-there"));
    expect(ok.stderr).toBe("");
    expect(ok.stdout).toContain(`files: ${KEYS.length} keys checked in ${STORAGE}`);
    expect(fs.existsSync(path.join(work, "all-there", "pglite", "PG_VERSION"))).toBe(true);
    expect(fs.existsSync(path.join(work, "all-there", "studio"))).toBe(false);

    const local = await run({ PATH: process.env.PATH ?? "", DATA_DIR: path.join(work, "no-storage") });
    expect(local.status).toBe(1);
    expect(local.stderr).toContain(`the archive's files are in a bucket (${STORAGE}), not in it: set X3D_STORAGE`);
    expect(fs.existsSync(path.join(work, "no-storage"))).toBe(false);
  }, 60_000);

  it("refuses, naming the key and writing nothing, when a key is missing from the bucket; --allow-missing restores anyway", async () => {
    const { fileStore } = await import("@/lib/files/store");
    await fileStore().delete(KEYS[1]!);
    const refused = await restore(path.join(work, "missing"));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `1 of the archive's ${KEYS.length} files are missing from ${STORAGE}:\n  ${KEYS[1]}: not in the bucket`,
    );
    expect(fs.readdirSync(path.join(work, "missing"))).toEqual([]);

    const allowed = await restore(path.join(work, "missing"), "--allow-missing");
    expect(allowed.status).toBe(0);
    expect(allowed.stderr).toContain(`${KEYS[1]}: not in the bucket`);
    expect(fs.existsSync(path.join(work, "missing", "pglite", "PG_VERSION"))).toBe(true);
  }, 60_000);
});
