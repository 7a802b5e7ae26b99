// Issue 29, roles: one web server (X3D_ROLE=web) and two workers (X3D_ROLE=worker) sharing one
// PostgreSQL and one store (a shared DATA_DIR here; the bucket in the S3 run). The web server
// serves the studio and the API and never runs work; the workers generate, save the studio's
// results and display copies, deliver callbacks, and take over each other's tasks.
// PostgreSQL only: the embedded PGlite is one process by construction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, slowSubmit } from "../harness/api";
import { queryDb } from "../harness/db";
import { freePort, startServers, usingPostgres, type TestServer } from "../harness/server";
import { createImageTask, signUp, uploadImage } from "../harness/studio";
import { until } from "../harness/until";

const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", format: "2", face: "100000" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface EngineRow {
  id: string;
  state: string;
  owner: string | null;
  runs: number;
  refunded: boolean;
  cost: number;
}

describe.skipIf(!usingPostgres())("one web server and two workers (X3D_ROLE; needs X3D_TEST_DATABASE_URL)", () => {
  let web: TestServer;
  let workers: TestServer[];
  let cookie: string;
  /** Owners seen holding an engine task, sampled all along (an owner is cleared when its task ends). */
  const owners = new Set<string>();
  let sampling = true;
  let sampler: Promise<void> | undefined;

  const engineRows = () => queryDb<EngineRow>(web, "select id, state, owner, runs, refunded, cost from engine_tasks order by created_at");
  const studioTask = async (id: string) => {
    const res = await fetch(`${web.url}/api/tasks/${id}`, { headers: { cookie } });
    return (await res.json()) as { state: string; settled: boolean; result: { stored: boolean }; display: { pending: boolean } };
  };
  const studioRow = async (id: string) =>
    (
      await queryDb<{ state: string; result_file: string | null; display_state: string | null; service_task_id: string }>(
        web,
        "select state, result_file, display_state, service_task_id from studio_tasks where id = $1",
        [id],
      )
    )[0]!;
  const saved = (id: string) => async () => {
    const row = await studioRow(id);
    return row.state === "success" && row.result_file !== null && row.display_state === "ready";
  };
  const pidOf = (owner: string) => Number(owner.split("-")[0]);

  beforeAll(async () => {
    const webPort = await freePort();
    const webUrl = `http://127.0.0.1:${webPort}`;
    const servers = await startServers(
      3,
      {
        // Every process names the app by the web server's address: links the web server signs are the workers' own.
        APP_URL: webUrl,
        X3D_ENGINE_WORKERS: "1",
        X3D_ENGINE_MIN_TASK_SECONDS: "3",
        X3D_ENGINE_LEASE_SECONDS: "4",
        X3D_ENGINE_CONCURRENCY: "4",
      },
      {
        envOf: (i): Record<string, string> =>
          i === 0 ? { X3D_ROLE: "web", PORT: String(webPort) } : { X3D_ROLE: "worker", X3D_WEB_URL: webUrl },
      },
    );
    [web, ...workers] = servers as [TestServer, ...TestServer[]];
    cookie = await signUp(web.url, "roles@example.com", "correct horse battery staple 9");
    sampler = (async () => {
      while (sampling) {
        for (const r of await engineRows().catch(() => [])) if (r.owner) owners.add(r.owner);
        await sleep(100);
      }
    })();
  }, 120_000);

  afterAll(async () => {
    sampling = false;
    await sampler;
    await Promise.all([web, ...(workers ?? [])].filter(Boolean).map((s) => s.dispose()));
  });

  it("a worker answers only GET /api/health, naming its role; the web server names its own", async () => {
    const worker = workers[0]!;
    const health = await fetch(`${worker.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", role: "worker", checks: { service: { ok: true } } });
    for (const [method, path] of [
      ["GET", "/"],
      ["GET", "/sign-in"],
      ["POST", "/api/uploads?kind=image"],
      ["POST", "/open-api/v1/submit-task"],
      ["GET", "/api/tasks/none"],
    ]) {
      const res = await fetch(`${worker.url}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as { error: string }).error).toContain("X3D_ROLE=worker");
    }
    expect(await (await fetch(`${web.url}/api/health`)).json()).toMatchObject({ status: "ok", role: "web" });
  });

  it("studio tasks made on the web server are generated and saved on the workers, never on it", async () => {
    const upload = await uploadImage(web.url, cookie);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await createImageTask(web.url, cookie, upload.id, cheap));
    for (const id of ids) await until(saved(id), `task ${id} saved with its display copy`, 120_000);
    // The web server's view of each: settled, with the result and the display copy the workers saved.
    for (const id of ids)
      expect(await studioTask(id)).toMatchObject({
        state: "success",
        settled: true,
        result: { stored: true },
        display: { pending: false },
      });

    const workerPids = workers.map((w) => w.pid());
    expect(owners.size).toBeGreaterThan(0);
    for (const owner of owners) expect(workerPids, `owner ${owner}`).toContain(pidOf(owner));
    // The saves are the workers' (each logs the tasks it saved), none the web server's.
    const workerLogs = workers.map((w) => w.output()).join("\n");
    for (const id of ids) expect(workerLogs).toContain(`saved the result of task ${id}`);
    expect(web.output()).not.toContain("saved the result of task");
    expect(web.output()).toContain("web server (workers generate)");
    // The workers delivered each task's callback to the studio on the web server.
    const serviceIds = await Promise.all(ids.map(async (id) => (await studioRow(id)).service_task_id));
    await until(
      async () =>
        (
          await queryDb<{ callback_status: string }>(web, "select callback_status from engine_tasks where id = any($1)", [serviceIds])
        ).every((r) => r.callback_status === "delivered"),
      "the callbacks to be delivered",
      30_000,
    );
    // The result is served by the web server from the shared store.
    const res = await fetch(`${web.url}/api/files/${ids[0]}/result`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).slice(0, 4))).toBe("glTF");
  }, 240_000);

  it("with both workers stopped a task waits in the queue; a worker started later runs and saves it", async () => {
    await Promise.all(workers.map((w) => w.stop()));
    const upload = await uploadImage(web.url, cookie, "robot.png");
    const id = await createImageTask(web.url, cookie, upload.id, cheap);
    await sleep(5_000);
    const row = await studioRow(id);
    expect(row.result_file).toBeNull();
    const [engine] = await queryDb<EngineRow>(web, "select id, state, owner, runs from engine_tasks where id = $1", [row.service_task_id]);
    expect(engine).toMatchObject({ state: "queueing", owner: null, runs: 0 });
    await workers[1]!.restart();
    await until(saved(id), `task ${id} saved once a worker is back`, 120_000);
    await workers[0]!.restart();
  }, 240_000);

  it("a slow upload to the web server spanning several of the workers' staging sweeps reaches its task", async () => {
    // The workers sweep staging folders every third of the lease (4 s); the web server's must count as live.
    const api = new Api(web.url);
    const token = await api.getToken();
    const answer = await slowSubmit(web.url, token, 600);
    expect(answer.code, JSON.stringify(answer)).toBe(200);
    expect((await api.waitFor("query-task", answer.data.task_id, "Bearer", 120_000)).data.state).toBe("success");
  }, 180_000);

  it("a worker killed mid-task: the other takes it over once the lease runs out; nothing lost, each charged once", async () => {
    const before = await engineRows();
    const upload = await uploadImage(web.url, cookie, "teapot.png");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await createImageTask(web.url, cookie, upload.id, cheap));
    // Wait until one worker holds one of them, then kill it there.
    let victim: TestServer | undefined;
    let cutOff: string | undefined;
    await until(
      async () => {
        const held = (await engineRows()).find((r) => r.state === "processing" && r.owner && !before.some((b) => b.id === r.id));
        victim = held && workers.find((w) => w.pid() === pidOf(held.owner!));
        cutOff = held?.id;
        return !!victim;
      },
      "a worker to take a task",
      60_000,
    );
    await victim!.stop(true);
    for (const id of ids) await until(saved(id), `task ${id} saved after the kill`, 180_000);

    const rows = (await engineRows()).filter((r) => !before.some((b) => b.id === r.id));
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.id === cutOff)!.runs).toBe(2);
    expect(rows.every((r) => r.state === "success" && !r.refunded)).toBe(true);
    // The service charged each task once; the studio's ledger holds one charge per task and no refund.
    const [client] = await queryDb<{ balance: string }>(web, "select balance from engine_clients where active");
    const charged = (await queryDb<{ cost: number }>(web, "select cost from engine_tasks where not refunded")).reduce(
      (n, r) => n + r.cost,
      0,
    );
    expect(1000 - Number(client!.balance)).toBe(charged);
    const ledger = await queryDb<{ task_id: string; kind: string; n: number }>(
      web,
      "select task_id, kind, count(*)::int as n from credit_ledger where task_id = any($1) group by task_id, kind",
      [ids],
    );
    expect(ledger.map((l) => [l.kind, l.n])).toEqual(ids.map(() => ["charge", 1]));
    await victim!.restart();
  }, 300_000);
});
