// X3D_STORAGE=s3://…: a server whose files all go to an S3-compatible bucket (s3rver, started
// here) serves both faces as one on disk does (uploads, tasks, file routes with Range, ETag and
// 304), writes no file under DATA_DIR, and leaves no object behind a refused upload or a deleted
// task. Runs in every run; the S3 run of scripts/test.mjs repeats the whole service suite so.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { S3_BUCKET, startS3, type TestS3 } from "../harness/s3-server";
import { startServer, usingPostgres, type TestServer } from "../harness/server";
import { storedKeys } from "../harness/stored-files";
import { createImageTask, signUp, uploadImage } from "../harness/studio";
import { tempDir } from "../harness/temp-dir";
import { until } from "../harness/until";

const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", format: "2", face: "100000" };
const s3Files = tempDir("object-storage-s3");
let s3: TestS3;
let server: TestServer;
let cookie: string;

/** Every file under a folder, relative to it. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((e) => (e.isFile() ? [path.relative(dir, path.join(e.parentPath, e.name))] : []));
}

const saved = { ...process.env };

beforeAll(async () => {
  s3 = await startS3(s3Files);
  // The test process reads the bucket too (storedKeys), with the server's variables.
  Object.assign(process.env, s3.env);
  server = await startServer({ ...s3.env, X3D_STORAGE: `s3://${S3_BUCKET}/install-1` });
  cookie = await signUp(server.url, "s3@example.com", "correct horse battery staple 9");
}, 120_000);

afterAll(async () => {
  await server?.dispose();
  await s3?.close();
  for (const name of Object.keys(s3?.env ?? {})) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("object storage (X3D_STORAGE=s3://…)", () => {
  it("keeps a studio task's upload, result and copies in the bucket, and serves them with Range, ETag and 304", async () => {
    const upload = await uploadImage(server.url, cookie);
    expect(await storedKeys(server, "studio/uploads")).toEqual([`studio/uploads/${upload.id}`]);
    const id = await createImageTask(server.url, cookie, upload.id, cheap);
    await until(
      async () => {
        const res = await fetch(`${server.url}/api/tasks/${id}`, { headers: { cookie } });
        const body = (await res.json()) as { state: string; displayState?: string | null };
        return body.state === "success";
      },
      "the task to succeed",
      90_000,
    );
    await until(
      async () => (await storedKeys(server, `studio/results/${id}`)).some((k) => k.endsWith("/display.glb")),
      "the display copy",
      60_000,
    );
    const stored = (await storedKeys(server, `studio/results/${id}`)).map((k) => k.slice(k.lastIndexOf("/") + 1));
    expect(stored).toEqual(expect.arrayContaining(["cover.png", "display.glb", "result.glb"]));

    const whole = await fetch(`${server.url}/api/files/${id}/result`, { headers: { cookie } });
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(whole.status).toBe(200);
    expect(Number(whole.headers.get("content-length"))).toBe(bytes.length);
    expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe("glTF");
    const etag = whole.headers.get("etag");
    expect(etag).toMatch(/^"[^"]+"$/);

    const part = await fetch(`${server.url}/api/files/${id}/result`, { headers: { cookie, range: "bytes=4-103" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 4-103/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(4, 104));

    const again = await fetch(`${server.url}/api/files/${id}/result`, { headers: { cookie, "if-none-match": etag! } });
    expect(again.status).toBe(304);
    await again.arrayBuffer();

    // Deleting the task removes its objects.
    const deleted = await fetch(`${server.url}/api/tasks/${id}`, { method: "DELETE", headers: { cookie, origin: server.url } });
    expect(deleted.status).toBe(204);
    expect(await storedKeys(server, `studio/results/${id}`)).toEqual([]);
    expect(await storedKeys(server, "studio/deleted")).toEqual([]);
  }, 180_000);

  it("keeps the service's inputs and results in the bucket; its signed links serve them with Range", async () => {
    const api = new Api(server.url);
    const created = await api.post("submit-task", { images: [fixture("chair.png"), "chair.png"], ...cheap });
    const taskId = created.data.task_id as string;
    const done = await api.waitFor("query-task", taskId, "Bearer", 90_000);
    expect(done.data.state).toBe("success");
    const keys = await storedKeys(server, `engine/tasks/${taskId}`);
    expect(keys.some((k) => /\/result\.glb$/.test(k))).toBe(true);
    expect(keys.some((k) => /\/cover\.png$/.test(k))).toBe(true);
    const part = await fetch(done.data.url!, { headers: { range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toMatch(/^bytes 0-99\/\d+$/);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  }, 120_000);

  it("stores nothing for a refused upload", async () => {
    const before = await storedKeys(server, "studio/uploads");
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(64).fill(1)], { type: "image/png" }), "not-an-image.png");
    const res = await fetch(`${server.url}/api/uploads?kind=image`, {
      method: "POST",
      headers: { cookie, origin: server.url },
      body: form,
    });
    expect(res.status).toBe(415);
    expect(await storedKeys(server, "studio/uploads")).toEqual(before);
  });

  it("writes no stored file under DATA_DIR: only the embedded database (and its lock) and the generated secrets (and the ops token) are there", () => {
    const files = filesUnder(server.dataDir);
    // The guard: the folder was read (on PostgreSQL it holds no database, only the secrets).
    expect(fs.existsSync(server.dataDir)).toBe(true);
    if (!usingPostgres()) expect(files.some((f) => f.startsWith(`pglite${path.sep}`))).toBe(true);
    if (!usingPostgres()) expect(files).toContain("pglite.lock");
    expect(
      files.filter(
        (f) => !f.startsWith(`pglite${path.sep}`) && !["pglite.lock", "auth-secret", "x3d-credentials.json", "ops-token"].includes(f),
      ),
    ).toEqual([]);
  });
});
