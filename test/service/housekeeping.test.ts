// What a crash leaves behind is cleaned up, at the next start and on a timer: tasks charged
// whose id never reached the client, upload folders of dead requests, task folders without
// a task; and finished tasks' files are removed after X3D_ENGINE_RETENTION_HOURS.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Api, fixture, slowSubmit } from "../harness/api";
import { withDatabase } from "../harness/db";
import { storedKeys } from "../harness/stored-files";
import { startServer, usingS3, type TestServer } from "../harness/server";
import { until } from "../harness/until";

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.dispose())));
const png = () => [fixture("chair.png"), "chair.png"] as [Blob, string];
const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", face: "100000" }; // 5 credits

/** Sets the modification times of `target` back by `ageMs`. */
function age(target: string, ageMs: number): void {
  const t = (Date.now() - ageMs) / 1000;
  fs.utimesSync(target, t, t);
}

/** A folder with one file, as an upload or a task leaves it, last changed `ageMs` ago. */
function plant(dir: string, ageMs: number): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "images-0.upload");
  fs.writeFileSync(file, "bytes");
  age(file, ageMs);
  age(dir, ageMs);
  return dir;
}

describe("tasks whose create request died before answering", () => {
  it("a task left `created` for over a minute is failed and refunded at the next start, not run", async () => {
    const server = await startServer({ X3D_ENGINE_MIN_TASK_SECONDS: "30" });
    servers.push(server);
    const api = new Api(server.url);
    const id = (await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string;
    expect(await api.balance()).toBe(995);
    // As if the server died between charging and answering, two minutes ago: the row and the
    // charge are committed, the client never saw the id.
    await server.stop(true);
    await withDatabase(server, (q) =>
      q(
        `update engine_tasks set state = 'created', owner = null, runs = 0, started_at = null, heartbeat_at = null,
           created_at = now() - interval '2 minutes' where id = $1`,
        [id],
      ),
    );
    await server.restart();
    const again = new Api(server.url);
    expect(await again.waitFor("query-task", id, "Bearer", 60_000)).toEqual({ code: 50010001, data: {}, msg: "generate failed" });
    expect(await again.balance()).toBe(1000);
    expect(server.output()).toContain(`failed and refunded 1 task(s) whose create request never answered: ${id}`);
    await server.stop();
    const [row] = await withDatabase(server, (q) =>
      q<{ refunded: boolean; failure: string; runs: number }>("select refunded, failure, runs from engine_tasks where id = $1", [id]),
    );
    expect(row).toEqual({
      refunded: true,
      failure: expect.stringMatching(/create request ended before it answered.*never got this task_id/),
      runs: 0,
    });
  });
});

describe("folders a crash left", () => {
  // Plants folders on disk dated back: a bucket cannot date an object back, and with S3 the
  // staging folders are in the system's temporary folder. The S3 run leaves these to the runs on disk.
  it.skipIf(usingS3())(
    "staging and task folders without a task, unchanged for an hour past the body timeout, are removed at start; younger ones and tasks' folders stay",
    async () => {
      const server = await startServer();
      servers.push(server);
      const api = new Api(server.url);
      const id = (await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string;
      expect((await api.waitFor("query-task", id)).data.state).toBe("success");
      await server.stop(true);

      const engine = path.join(server.dataDir, "engine");
      const staging = (name: string) => path.join(engine, "staging", name.repeat(24));
      const task = (name: string) => path.join(engine, "tasks", `i3d_20260101_${name.repeat(24)}`);
      // Past X3D_ENGINE_BODY_TIMEOUT (30 s) plus an hour, by a minute.
      const old = 30_000 + 60 * 60_000 + 60_000;
      const leftovers = [plant(staging("a"), old), plant(task("c"), old)];
      const kept = [
        plant(staging("b"), 55 * 60_000),
        // An old folder whose file is still being written: a slow upload.
        plant(staging("e"), 10_000),
        plant(task("d"), 55 * 60_000),
        // Not named like a task: not ours to remove.
        plant(path.join(engine, "tasks", "notes"), old),
      ];
      age(staging("e"), old);
      // The real task's folder, as old: its row keeps it (its retention is 72 h).
      const real = path.join(engine, "tasks", id);
      for (const name of fs.readdirSync(real)) age(path.join(real, name), old);
      age(real, old);

      await server.restart();
      await until(() => server.output().includes("housekeeping:"), "housekeeping to report");
      // Two passes, reported apart: upload folders (every third of the lease) and task folders.
      await until(
        () => server.output().includes("task folder(s)") && server.output().includes("upload folder(s)"),
        "housekeeping to report both",
      );
      expect(server.output()).toContain("housekeeping: removed 1 upload folder(s) of create requests that died");
      expect(server.output()).toContain("housekeeping: removed 1 task folder(s) without a task");
      for (const dir of leftovers) expect(fs.existsSync(dir), dir).toBe(false);
      for (const dir of kept) expect(fs.existsSync(dir), dir).toBe(true);
      const done = await new Api(server.url).waitFor("query-task", id);
      expect((await fetch(done.data.url!)).status).toBe(200);
    },
  );
});

describe("uploads of a server that stopped", () => {
  // Plants folders on disk dated back: a bucket cannot date an object back, and with S3 the
  // staging folders are in the system's temporary folder. The S3 run leaves these to the runs on disk.
  it.skipIf(usingS3())(
    "a killed server's staging folders go at the next start however fresh; on PostgreSQL a live peer's stay",
    async () => {
      const server = await startServer({ X3D_ENGINE_LEASE_SECONDS: "3", X3D_ENGINE_BODY_TIMEOUT: "2" });
      servers.push(server);
      await server.stop(true);
      const engine = path.join(server.dataDir, "engine");
      // Named as stagingDir names them: <pid>-<instance>.<random>. Written just now, mid-upload.
      const dead = plant(path.join(engine, "staging", `4242-deadbeef.${"d".repeat(24)}`), 0);
      const peerFolder = path.join(engine, "staging", `4343-0badc0de.${"e".repeat(24)}`);
      const peerMarker = path.join(engine, "instances", "4343-0badc0de");
      const keepPeerAlive = () => {
        fs.mkdirSync(path.dirname(peerMarker), { recursive: true });
        fs.writeFileSync(peerMarker, "");
      };
      plant(peerFolder, 0);
      keepPeerAlive();
      const beat = setInterval(keepPeerAlive, 500);
      try {
        await server.restart();
        await until(() => !fs.existsSync(dead), "the dead server's upload folder to go");
        if (server.env.DATABASE_URL) {
          // Another machine sharing DATA_DIR and the database, marking itself alive: its upload stays.
          await new Promise((r) => setTimeout(r, 3000));
          expect(fs.existsSync(peerFolder)).toBe(true);
          clearInterval(beat);
          // Silent for the lease plus two body timeouts (7 s): it stopped.
          await until(() => !fs.existsSync(peerFolder), "the stopped peer's upload folder to go", 20_000);
        } else {
          // PGlite's files are one process's: no other server can be alive.
          await until(() => !fs.existsSync(peerFolder), "the other upload folder to go");
        }
      } finally {
        clearInterval(beat);
      }
    },
  );
});

describe("uploads in flight", () => {
  it("a slow upload spanning several staging sweeps reaches its task", async () => {
    // Sweeps every second (a third of the lease).
    const server = await startServer({ X3D_ENGINE_LEASE_SECONDS: "3" });
    servers.push(server);
    const api = new Api(server.url);
    const token = await api.getToken();
    const answer = await slowSubmit(server.url, token, 500);
    expect(answer.code).toBe(200);
    expect((await api.waitFor("query-task", answer.data.task_id)).data.state).toBe("success");
  });
});

describe("retention", () => {
  it("a finished task's files are removed X3D_ENGINE_RETENTION_HOURS after it finished; it still answers success, its links 410 Gone", async () => {
    // 7.2 s, checked every 1.8 s.
    const retentionMs = 0.002 * 3_600_000;
    const server = await startServer({ X3D_ENGINE_RETENTION_HOURS: "0.002" });
    servers.push(server);
    const api = new Api(server.url);
    const id = (await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string;
    const done = await api.waitFor("query-task", id);
    const finished = Date.now();
    expect(done.data.state).toBe("success");
    expect((await fetch(done.data.url!)).status).toBe(200);

    expect(await storedKeys(server, `engine/tasks/${id}`)).not.toEqual([]);
    await until(async () => (await storedKeys(server, `engine/tasks/${id}`)).length === 0, "the files to expire");
    // Polls see the success within 200 ms of it.
    expect(Date.now() - finished).toBeGreaterThanOrEqual(retentionMs - 250);
    // The sweep deletes the folder first and logs after its database update and the other
    // sweeps: on a busy machine the line comes a moment after the folder is gone.
    const line = "housekeeping: removed the files of 1 task(s) finished over 0.002 h ago";
    await until(() => server.output().includes(line), "housekeeping to log the removal", 10_000);
    expect(server.output()).toContain(line);
    // A JSON line (lib/log) whose request id is the sweep's.
    const logged = server
      .output()
      .split("\n")
      .find((l) => l.includes(line));
    expect(JSON.parse(logged ?? "{}")).toMatchObject({ level: "info", reqId: expect.stringMatching(/^sweep:\d+$/) });

    const later = await api.get(`query-task?task_id=${id}`);
    expect(later).toMatchObject({ code: 200, data: { task_id: id, state: "success", id: `${id}_0` } });
    for (const link of [(later.data as { url: string }).url, (later.data as { cover_url: string }).cover_url, done.data.url!]) {
      const gone = await fetch(link);
      expect(gone.status, link).toBe(410);
      expect(await gone.text()).toMatch(/removed when its retention period ended/);
    }
    expect(await api.balance()).toBe(995);

    await server.stop();
    const [row] = await withDatabase(server, (q) =>
      q<{ files_expired_at: Date | null }>("select files_expired_at from engine_tasks where id = $1", [id]),
    );
    expect(row!.files_expired_at).toBeInstanceOf(Date);
  });
});
