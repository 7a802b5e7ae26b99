// Deleting studio tasks over HTTP (DELETE /api/tasks/<id>): the owner's task goes at once
// everywhere it was reachable (status route, files, share link, pages, history), its stored
// files leave DATA_DIR and its row the database, the charge stays; someone else's task is
// not theirs to delete unless they are an admin; a task still running may be deleted and its
// late callback changes nothing.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { withDatabase } from "../harness/db";
import { startServer, usingS3, type TestServer } from "../harness/server";
import { storedKeys } from "../harness/stored-files";
import { plantAccount, plantTask, signIn, type Session } from "../harness/studio-rows";
import { until } from "../harness/until";

const ADMIN = "boss@example.com";
const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", format: "2", face: "100000" };
const png = () => [fixture("chair.png"), "chair.png"] as [Blob, string];
// Ids as lib/storage's newId(12) makes them.
const ID = { a: "aliceTaskAAAAAAA", a2: "aliceTaskA2AAAAA", d: "aliceTextureDDDD", b: "bobTaskBBBBBBBBB", r: "aliceRunningRRRR" };
const TOKEN = "s".repeat(43);
const LEFTOVER = "deletedEarlierXX";

let server: TestServer;
let api: Api;
let alice: Session;
let bob: Session;
let boss: Session;
let runningService: string;
let runningSecret: string;

const results = (id: string) => path.join(server.dataDir, "studio", "results", id);
/** The names stored in a task's result folder (on disk, or in the S3 run's bucket). */
const stored = async (id: string) => (await storedKeys(server, `studio/results/${id}`)).map((k) => k.slice(k.lastIndexOf("/") + 1));
const status = async (session: Session, url: string) => {
  const res = await session.fetch(url);
  await res.arrayBuffer();
  return res.status;
};
const del = (session: Session, id: string, headers: Record<string, string> = {}) =>
  session.fetch(`/api/tasks/${id}`, { method: "DELETE", headers });

/** Polls the status route (which refreshes the task: copies its files, derives its display copy) until it settles. */
async function settle(session: Session, id: string): Promise<void> {
  await until(
    async () => ((await (await session.fetch(`/api/tasks/${id}`)).json()) as { settled?: boolean }).settled === true,
    `task ${id} to settle`,
    90_000,
  );
}

beforeAll(async () => {
  // Tasks of the embedded service take 8 s: long enough to delete one while it runs.
  server = await startServer({ ADMIN_EMAILS: ADMIN, X3D_ENGINE_MIN_TASK_SECONDS: "8", X3D_ENGINE_CALLBACK_BACKOFF_MS: "100" });
  api = new Api(server.url);
  const done = (await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string;
  expect((await api.waitFor("query-task", done)).data.state).toBe("success");
  await server.stop();
  await withDatabase(server, async (q) => {
    const [aliceId, bobId] = [await plantAccount(q, "alice@example.com"), await plantAccount(q, "bob@example.com")];
    await plantAccount(q, ADMIN);
    // Studio tasks over the service's finished task, as the create actions record them.
    for (const id of [ID.a, ID.a2]) await plantTask(q, { id, userId: aliceId, serviceTaskId: done, state: "processing" });
    await plantTask(q, {
      id: ID.d,
      userId: aliceId,
      kind: "texture",
      serviceTaskId: done,
      state: "processing",
      inputs: { mesh: { task: ID.a } },
    });
    await plantTask(q, { id: ID.b, userId: bobId, serviceTaskId: done, state: "processing" });
    // One whose create answer was lost: the service's callback will name its task.
    runningSecret = await plantTask(q, { id: ID.r, userId: aliceId, serviceTaskId: null, state: "checking" });
    await q("insert into shares (token, task_id, user_id) values ($1, $2, $3)", [TOKEN, ID.a, aliceId]);
  });
  // What a delete whose file removal failed leaves: the marker and the folder, the row gone.
  // Planted on disk with a marker dated 5 minutes back (a bucket cannot date an object back: the
  // S3 run leaves this case to the runs on disk).
  fs.mkdirSync(results(LEFTOVER), { recursive: true });
  fs.writeFileSync(path.join(results(LEFTOVER), "result.glb"), "glTF");
  const markers = path.join(server.dataDir, "studio", "deleted");
  fs.mkdirSync(markers, { recursive: true });
  fs.writeFileSync(path.join(markers, LEFTOVER), "");
  const before = new Date(Date.now() - 5 * 60_000);
  fs.utimesSync(path.join(markers, LEFTOVER), before, before);
  await server.restart();
  [alice, bob, boss] = await Promise.all([signIn(server, "alice@example.com"), signIn(server, "bob@example.com"), signIn(server, ADMIN)]);
  await Promise.all([settle(alice, ID.a), settle(alice, ID.a2), settle(alice, ID.d), settle(bob, ID.b)]);
}, 180_000);
afterAll(() => server?.dispose());

describe("DELETE /api/tasks/<id>", () => {
  it.skipIf(usingS3())("the files a failed removal left are removed by the studio's housekeeping at start", async () => {
    await until(() => !fs.existsSync(results(LEFTOVER)), "the leftover folder to go");
    await until(() => server.output().includes("[studio] housekeeping: removed the files of 1 deleted task(s)"), "the log line");
  });

  it("the owner deletes: 204, then the task, its files, share link, pages and history entry are gone, and the charge stays", async () => {
    const reachable = [
      `/api/tasks/${ID.a}`,
      `/api/files/${ID.a}/result`,
      `/api/files/${ID.a}/cover`,
      `/api/files/${ID.a}/display`,
      `/tasks/${ID.a}`,
      `/compare?t=${ID.a}&t=${ID.d}`,
      `/share/${TOKEN}`,
      `/api/share/${TOKEN}/files/result`,
      `/api/share/${TOKEN}/files/cover`,
    ];
    for (const url of reachable) expect(await status(alice, url), url).toBe(200);
    expect(await stored(ID.a)).toEqual(expect.arrayContaining(["cover.png", "display.glb", "result.glb"]));
    expect(await (await alice.fetch("/tasks")).text()).toContain(`/tasks/${ID.a}"`);
    const balance = await api.balance();

    const res = await del(alice, ID.a);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");

    for (const url of reachable) expect(await status(alice, url), url).toBe(404);
    expect(await stored(ID.a)).toEqual([]);
    expect(await storedKeys(server, "studio/deleted")).toEqual([]);
    expect(await (await alice.fetch("/tasks")).text()).not.toContain(`/tasks/${ID.a}"`);
    expect(await api.balance()).toBe(balance);
    // Again: there is nothing left to delete.
    expect((await del(alice, ID.a)).status).toBe(404);
  });

  it("a task made from the deleted one still renders, its input shown as deleted", async () => {
    const page = await alice.fetch(`/tasks/${ID.d}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("a deleted task&#x27;s result");
    expect(html).not.toContain(`/tasks/${ID.a}"`);
    expect(await status(alice, `/api/files/${ID.d}/result`)).toBe(200);
    expect(await status(alice, `/api/files/${ID.d}/inputs/0`)).toBe(404);
  });

  it("someone else's task answers 404 and stays; signed out answers 401", async () => {
    expect((await del(bob, ID.a2)).status).toBe(404);
    expect((await del(bob, "no-such-task")).status).toBe(404);
    const anonymous = await fetch(`${server.url}/api/tasks/${ID.a2}`, {
      method: "DELETE",
      headers: { origin: new URL(server.url).origin },
    });
    expect(anonymous.status).toBe(401);
    expect(await status(alice, `/api/tasks/${ID.a2}`)).toBe(200);
    expect(await status(alice, `/api/files/${ID.a2}/result`)).toBe(200);
    expect(await stored(ID.a2)).toContain("result.glb");
  });

  it("a DELETE from another site, or not saying where from, is refused with 403 and deletes nothing", async () => {
    for (const origin of ["http://evil.example", "null", ""]) {
      const res = await del(alice, ID.a2, { origin });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/another site/) });
    }
    expect(await status(alice, `/api/tasks/${ID.a2}`)).toBe(200);
  });

  it("an admin (ADMIN_EMAILS) deletes another user's task", async () => {
    expect(await status(boss, `/api/tasks/${ID.b}`)).toBe(404); // reading stays the owner's
    expect((await del(boss, ID.b)).status).toBe(204);
    expect(await status(bob, `/api/tasks/${ID.b}`)).toBe(404);
    expect(await status(bob, `/api/files/${ID.b}/result`)).toBe(404);
    expect(await stored(ID.b)).toEqual([]);
  });

  it("a task still running is deleted; when the service finishes it, its callback finds nothing and nothing comes back", async () => {
    const callbackUrl = `http://localhost:${server.port}/api/callbacks/${ID.r}/${runningSecret}`;
    runningService = (await api.post("submit-task", { images: png(), ...cheap, callback_url: callbackUrl })).data.task_id as string;
    // The service's word that names the task (as its callback would): the studio adopts it and polls it.
    const adopt = await fetch(callbackUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: 200, msg: "success", data: { task_id: runningService, state: "queueing" } }),
    });
    expect(adopt.status).toBe(200);
    await until(
      async () => ((await (await alice.fetch(`/api/tasks/${ID.r}`)).json()) as { state?: string }).state === "processing",
      "the running task to show processing",
    );

    expect((await del(alice, ID.r)).status).toBe(204);
    expect(await status(alice, `/api/tasks/${ID.r}`)).toBe(404);
    expect((await api.waitFor("query-task", runningService)).data.state).toBe("success");
    // The service's callbacks (three attempts, 100 ms back-off) and the studio's answers to them.
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await fetch(callbackUrl, { method: "POST" })).status).toBe(404);
    expect(await status(alice, `/api/tasks/${ID.r}`)).toBe(404);
    expect(await stored(ID.r)).toEqual([]);
    expect(server.running()).toBe(true);
    expect(server.output()).not.toMatch(/refreshing task|TypeError|unhandled/i);
  }, 60_000);

  it("in the database: the deleted rows and their share links are gone, the others and the service's charges kept", async () => {
    await server.stop();
    const rows = await withDatabase(server, async (q) => ({
      tasks: (await q<{ id: string }>("select id from studio_tasks order by id")).map((r) => r.id),
      shares: await q("select token from shares"),
      callback: (
        await q<{ callback_status: string; callback_attempts: number; refunded: boolean }>(
          "select callback_status, callback_attempts, refunded from engine_tasks where id = $1",
          [runningService],
        )
      )[0],
    }));
    expect(rows.tasks).toEqual([ID.a2, ID.d].sort());
    expect(rows.shares).toEqual([]);
    expect(rows.callback).toEqual({ callback_status: "gave_up", callback_attempts: 3, refunded: false });
  });
});
