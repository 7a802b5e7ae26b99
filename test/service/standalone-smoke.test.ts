// The container image's server, without Docker: `node server.js` in a copy of .next/standalone
// (what `npm run build` leaves there, scripts/standalone.mjs) outside the checkout, with
// HOSTNAME, PORT and a fresh DATA_DIR, as the Dockerfile's CMD runs it. Each step reaches files
// the folder must hold: the pages' scripts and public/, the database's packages and the
// migrations (health, sign-up), the engine's worker bundle and the packages it loads (a service
// task), the display worker's (the studio's display copy).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { STANDALONE_DIR, createDatabase, startServer, usingPostgres, type TestServer } from "../harness/server";
import { createImageTask, signUp, uploadImage } from "../harness/studio";
import { runScript } from "../harness/run-script";
import { tempDir } from "../harness/temp-dir";
import { until } from "../harness/until";
import { ROOT, WORKERS } from "../../scripts/worker-bundle.mjs";

let server: TestServer;
/** The backup's archive and the DATA_DIR it is restored into. */
const work = tempDir("standalone-backup");
let cookie: string;
// The cheapest task there is: smallest model, resolution and face count.
const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", format: "2", face: "100000" };

beforeAll(async () => {
  server = await startServer({}, { standalone: true });
});
afterAll(() => server?.dispose());

const get = (route: string, headers: Record<string, string> = {}) => fetch(`${server.url}${route}`, { headers });

describe("the standalone server, as the container runs it", () => {
  it("holds this build's worker bundles, and nothing else of the checkout (data/, sources)", () => {
    // What the image holds: data/ would be the build's own database and generated secrets.
    expect(fs.readdirSync(STANDALONE_DIR).sort()).toEqual([
      ".build",
      ".next",
      "lib",
      "node_modules",
      "package.json",
      "public",
      "scripts",
      "server.js",
    ]);
    expect(fs.readdirSync(path.join(STANDALONE_DIR, "scripts")).sort()).toEqual(["backup", "backup.mjs", "restore.mjs"]);
    expect(fs.readdirSync(path.join(STANDALONE_DIR, "lib")).sort()).toEqual(["db"]);
    // The embedded database's lock comes with the restore script that takes it (lib/db/data-dir-lock.mjs).
    expect(fs.readdirSync(path.join(STANDALONE_DIR, "lib/db")).sort()).toEqual(["data-dir-lock.mjs", "migrations", "pglite-host.mjs"]);
    // Without the display worker's, display copies run in the server's own thread: no answer shows it.
    for (const [, bundle] of WORKERS) {
      const copy = path.join(STANDALONE_DIR, bundle);
      expect(fs.existsSync(copy), copy).toBe(true);
      expect(fs.readFileSync(copy).equals(fs.readFileSync(path.join(ROOT, bundle))), `${copy} is this build's`).toBe(true);
    }
  });

  it("answers /api/health with every part ok", async () => {
    const res = await get("/api/health");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; checks: Record<string, { ok: boolean }> };
    expect(body.status).toBe("ok");
    for (const part of ["database", "storage", "service"]) expect(body.checks[part]?.ok, part).toBe(true);
  });

  it("serves a page, its scripts (.next/static) and public/ (the Draco decoder, the samples)", async () => {
    const page = await get("/sign-in");
    expect(page.status).toBe(200);
    const script = /\/_next\/static\/[^"']+\.js/.exec(await page.text())?.[0];
    expect(script, "a script in the page").toBeTruthy();
    const chunk = await get(script!);
    expect(chunk.status, script).toBe(200);
    await chunk.arrayBuffer();
    for (const file of ["/draco/draco_decoder.wasm", "/samples/chair.png"]) {
      const res = await get(file);
      expect(res.status, file).toBe(200);
      expect((await res.arrayBuffer()).byteLength, file).toBeGreaterThan(1000);
    }
  });

  it("signs a new account up, whose gallery then opens", async () => {
    cookie = await signUp(server.url, `smoke-${crypto.randomBytes(4).toString("hex")}@example.com`, "a long password kiln");
    const gallery = await get("/", { cookie });
    expect(gallery.status).toBe(200);
    await gallery.arrayBuffer();
  });

  it("runs an Open API task to success and serves its result with a Range: 206, Content-Range, 100 bytes", async () => {
    const api = new Api(server.url);
    const created = await api.post("submit-task", { images: [fixture("chair.png"), "chair.png"], ...cheap });
    expect(created.code, JSON.stringify(created)).toBe(200);
    const done = await api.waitFor("query-task", created.data.task_id as string);
    expect(done.data.state, JSON.stringify(done)).toBe("success");
    const part = await fetch(done.data.url!, { headers: { Range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toMatch(/^bytes 0-99\/\d+$/);
    const bytes = Buffer.from(await part.arrayBuffer());
    expect(bytes.length).toBe(100);
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("glTF");
  });

  it("takes a studio task from upload to its display copy", { timeout: 120_000 }, async () => {
    const upload = await uploadImage(server.url, cookie);
    const id = await createImageTask(server.url, cookie, upload.id, cheap);
    let task: { state?: string; settled?: boolean } = {};
    await until(
      async () => {
        task = (await (await get(`/api/tasks/${id}`, { cookie })).json()) as typeof task;
        return task.settled === true;
      },
      `task ${id} to settle`,
      90_000,
    );
    expect(task.state).toBe("success");
    const display = await get(`/api/files/${id}/display`, { cookie, Range: "bytes=0-99" });
    expect(display.status).toBe(206);
    expect(
      Buffer.from(await display.arrayBuffer())
        .subarray(0, 4)
        .toString("latin1"),
    ).toBe("glTF");
  });

  it(
    "backs itself up with its own scripts/backup.mjs, which scripts/restore.mjs puts into an empty DATA_DIR",
    { timeout: 120_000 },
    async () => {
      // As an operator of the image runs them: `docker compose exec web node scripts/backup.mjs`,
      // in the image's folder, with the packages it holds (docs/operations.md#backups).
      const archive = path.join(work, "x3d.tar.gz");
      const backup = await runScript("backup.mjs", ["--url", server.url, "--out", archive], server.env, server.appDir);
      expect(backup.stderr).toBe("");
      expect(backup.code).toBe(0);
      expect(backup.stdout).toMatch(/studio_tasks 1\b/);
      const database = usingPostgres() ? await createDatabase() : undefined;
      try {
        const restored = path.join(work, "restored");
        const rest = Object.fromEntries(Object.entries(server.env).filter(([name]) => name !== "DATA_DIR" && name !== "DATABASE_URL"));
        const restore = await runScript(
          "restore.mjs",
          [archive],
          {
            ...rest,
            DATA_DIR: restored,
            ...(database ? { DATABASE_URL: database.url } : {}),
          },
          server.appDir,
        );
        expect(restore.stderr).toBe("");
        expect(restore.code).toBe(0);
        expect(restore.stdout).toMatch(/is in /);
        expect(fs.existsSync(path.join(restored, "ops-token"))).toBe(true);
        if (!database) expect(fs.existsSync(path.join(restored, "pglite"))).toBe(true);
      } finally {
        await database?.drop();
      }
    },
  );
});
