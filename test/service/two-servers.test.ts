// Issue 10: with DATABASE_URL and a shared DATA_DIR, two servers on two ports are one
// service. PostgreSQL only: the embedded PGlite is one process by construction.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { queryDb } from "../harness/db";
import { closeReceivers, receiver } from "../harness/receiver";
import { CLIENT_ID, startServers, usingPostgres, type TestServer } from "../harness/server";

const png = (name = "chair.png") => [fixture(name), name] as [Blob, string];
const corrupt = (): [Blob, string] => {
  const bytes = new Uint8Array(4000).map((_, i) => (i * 7919) % 251);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return [new Blob([bytes]), "broken.png"];
};
const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", format: "2", face: "100000" }; // 5 credits
const DEPTH = 20;
const START = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface TaskRow {
  id: string;
  state: string;
  runs: number;
  refunded: boolean;
  cost: number;
  owner: string | null;
}
const taskRows = (s: TestServer) =>
  queryDb<TaskRow>(s, "select id, state, runs, refunded, cost, owner from engine_tasks order by created_at");
const balanceRow = async (s: TestServer) =>
  Number((await queryDb<{ balance: string }>(s, "select balance from engine_clients where id = $1", [CLIENT_ID]))[0]!.balance);

/** Polls `query` on `api` until the task ends. */
const final = (api: Api, query: string, id: string) => api.waitFor(query, id, "Bearer", 120_000);

/** The same link on another server of the service. */
function onServer(link: string, server: TestServer): string {
  const url = new URL(link);
  url.hostname = "127.0.0.1";
  url.port = String(server.port);
  return url.toString();
}

describe.skipIf(!usingPostgres())(
  "two servers on one database and data folder (needs X3D_TEST_DATABASE_URL: PGlite is one process)",
  () => {
    let a: TestServer;
    let b: TestServer;
    let apiA: Api;
    let apiB: Api;
    let expected = START;

    beforeAll(async () => {
      [a, b] = (await startServers(2, {
        X3D_ENGINE_BALANCE: String(START),
        X3D_ENGINE_CONCURRENCY: "2",
        X3D_ENGINE_MIN_TASK_SECONDS: "2",
        X3D_ENGINE_LEASE_SECONDS: "4",
        X3D_ENGINE_WORKERS: "1",
        X3D_ENGINE_ALLOW_PRIVATE_URLS: "1",
      })) as [TestServer, TestServer];
      apiA = new Api(a.url);
      apiB = new Api(b.url);
    });
    afterAll(async () => {
      closeReceivers();
      await Promise.all([a, b].filter(Boolean).map((s) => s.dispose()));
    });

    it("boot together on a fresh database: each migration applied once, one client granted its balance once", async () => {
      const journal = JSON.parse(
        fs.readFileSync(path.resolve(import.meta.dirname, "../../lib/db/migrations/meta/_journal.json"), "utf8"),
      ) as { entries: unknown[] };
      const [applied] = await queryDb<{ n: number }>(a, "select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(applied!.n).toBe(journal.entries.length);
      expect(await queryDb(a, "select id, balance::int, active from engine_clients")).toEqual([
        { id: CLIENT_ID, balance: START, active: true },
      ]);
      expect(await apiA.balance()).toBe(START);
      expect(await apiB.balance()).toBe(START);
    });

    it("a token issued by one server is accepted by the other", async () => {
      const fromA = await new Api(a.url).getToken();
      const fromB = await new Api(b.url).getToken();
      expect(await new Api(b.url).withToken(fromA).balance()).toBe(START);
      expect(await new Api(a.url).withToken(fromB).balance()).toBe(START);
      // The signature is checked, not just the shape: a token altered by one character is refused.
      const forged = fromA.slice(0, -2) + (fromA.endsWith("AA") ? "BB" : "AA");
      expect((await new Api(b.url).withToken(forged).get("balance")).code).toBe(401);
    });

    it("tasks submitted alternately through both and queried through the other: each runs once, links open on both, callbacks arrive once, credits exact", async () => {
      const hook = await receiver(200);
      const plan: { create: string; query: string; fields: Parameters<Api["post"]>[1]; cost: number; succeeds: boolean }[] = [
        {
          create: "submit-task",
          query: "query-task",
          fields: { images: png(), ...cheap, callback_url: hook.url },
          cost: 5,
          succeeds: true,
        },
        {
          create: "depth/create-task",
          query: "depth/query-task",
          fields: { image: png("police_woman.png"), format: "2", model_type: "base" },
          cost: DEPTH,
          succeeds: true,
        },
        { create: "submit-task", query: "query-task", fields: { images: png("robot.png"), ...cheap }, cost: 5, succeeds: true },
        {
          create: "submit-task",
          query: "query-task",
          fields: { images: corrupt(), ...cheap, callback_url: hook.url },
          cost: 5,
          succeeds: false,
        },
        {
          create: "submit-task",
          query: "query-task",
          fields: { images: png("teapot.png"), ...cheap, callback_url: hook.url },
          cost: 5,
          succeeds: true,
        },
        { create: "depth/create-task", query: "depth/query-task", fields: { image: corrupt(), format: "2" }, cost: DEPTH, succeeds: false },
        {
          create: "depth/create-task",
          query: "depth/query-task",
          fields: { image: png(), format: "2", model_type: "base" },
          cost: DEPTH,
          succeeds: true,
        },
        { create: "submit-task", query: "query-task", fields: { images: png(), ...cheap }, cost: 5, succeeds: true },
      ];
      const apis = [apiA, apiB];
      const tasks: { id: string; query: string; succeeds: boolean; via: number }[] = [];
      for (const [i, p] of plan.entries()) {
        const created = await apis[i % 2]!.post(p.create, p.fields);
        expect(created.code, JSON.stringify(created)).toBe(200);
        tasks.push({ id: created.data.task_id as string, query: p.query, succeeds: p.succeeds, via: i % 2 });
        expected -= p.succeeds ? p.cost : 0;
      }

      // The per-client limit (2) holds across both servers while they work.
      let maxProcessing = 0;
      for (;;) {
        const rows = await taskRows(a);
        maxProcessing = Math.max(maxProcessing, rows.filter((r) => r.state === "processing").length);
        if (rows.every((r) => r.state === "success" || r.state === "failed")) break;
        await sleep(100);
      }
      expect(maxProcessing).toBe(2);

      for (const t of tasks) {
        const done = await final(apis[1 - t.via]!, t.query, t.id); // through the server that did not take it
        if (!t.succeeds) {
          expect(done.data).toEqual({});
          continue;
        }
        expect(done.data.state, t.id).toBe("success");
        // Signed by one server, opened on both.
        const bodies = await Promise.all(
          [a, b].map(async (s) => {
            const res = await fetch(onServer(done.data.url!, s));
            expect(res.status).toBe(200);
            return Buffer.from(await res.arrayBuffer());
          }),
        );
        expect(bodies[0]!.length).toBeGreaterThan(0);
        expect(bodies[0]!.equals(bodies[1]!)).toBe(true);
      }

      const rows = await taskRows(a);
      expect(rows.map((r) => r.runs)).toEqual(tasks.map(() => 1));
      expect(rows.map((r) => r.refunded)).toEqual(tasks.map((t) => !t.succeeds));
      expect(await apiA.balance()).toBe(expected);
      expect(await apiB.balance()).toBe(expected);
      const charged = rows.filter((r) => !r.refunded).reduce((n, r) => n + r.cost, 0);
      expect(START - (await balanceRow(a))).toBe(charged);

      // Each callback once, though both servers scan for due deliveries.
      const hooked = [tasks[0]!, tasks[3]!, tasks[4]!].map((t) => t.id);
      const deadline = Date.now() + 20_000;
      while (hook.hits.length < hooked.length && Date.now() < deadline) await sleep(100);
      await sleep(1500);
      expect(hook.hits.map((h) => h.body.data.task_id).sort()).toEqual([...hooked].sort());
    });

    it("a server killed mid-task: the other takes its task over once the lease runs out, charged once", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const created = await apiA.post("submit-task", { images: png(), ...cheap });
        expect(created.code).toBe(200);
        ids.push(created.data.task_id as string);
        expected -= 5;
      }
      // Wait until A holds one of them, then kill it there.
      const ownerA = `${a.pid()}-`;
      let cutOff: string | undefined;
      for (let i = 0; i < 200 && !cutOff; i++) {
        cutOff = (await taskRows(a)).find((r) => ids.includes(r.id) && r.state === "processing" && r.owner?.startsWith(ownerA))?.id;
        if (!cutOff) await sleep(50);
      }
      expect(cutOff, "server A never took a task").toBeDefined();
      await a.stop(true);

      for (const id of ids) expect((await final(apiB, "query-task", id)).data.state).toBe("success");
      const rows = (await taskRows(b)).filter((r) => ids.includes(r.id));
      expect(rows.find((r) => r.id === cutOff)!.runs).toBe(2);
      expect(rows.every((r) => r.runs >= 1 && r.runs <= 2 && !r.refunded)).toBe(true);
      expect(await apiB.balance()).toBe(expected);
      expect(b.output()).toContain("resumed");
    });
  },
);

describe.skipIf(!usingPostgres())("two servers whose clocks disagree (needs X3D_TEST_DATABASE_URL)", () => {
  let a: TestServer;
  let b: TestServer;
  const BACKOFF_MS = 1500;

  beforeAll(async () => {
    // B's clock runs two minutes ahead, as another machine's may: leases and back-off are
    // the database's time, which both share, not each server's.
    [a, b] = (await startServers(
      2,
      {
        X3D_ENGINE_MIN_TASK_SECONDS: "5",
        X3D_ENGINE_LEASE_SECONDS: "4",
        X3D_ENGINE_WORKERS: "1",
        X3D_ENGINE_ALLOW_PRIVATE_URLS: "1",
        X3D_ENGINE_CALLBACK_BACKOFF_MS: String(BACKOFF_MS),
      },
      {
        envOf: (i): Record<string, string> =>
          i === 1
            ? {
                NODE_OPTIONS: `--require ${path.resolve(import.meta.dirname, "../harness/shift-clock.cjs")}`,
                X3D_TEST_CLOCK_SHIFT_MS: "120000",
              }
            : {},
      },
    )) as [TestServer, TestServer];
  });
  afterAll(async () => {
    closeReceivers();
    await Promise.all([a, b].filter(Boolean).map((s) => s.dispose()));
  });

  it("the server ahead takes over no live task and sends no callback before its back-off", async () => {
    const api = new Api(a.url);
    const hook = await receiver(500);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await api.post("submit-task", { images: png(), ...cheap, callback_url: hook.url })).data.task_id as string);
    const owners = new Set<string>();
    for (;;) {
      const rows = await taskRows(a);
      for (const r of rows) if (r.owner) owners.add(r.owner.split("-")[0]!);
      if (rows.every((r) => r.state === "success")) break;
      expect(rows.map((r) => r.state)).not.toContain("failed");
      await sleep(100);
    }
    expect(owners.has(String(a.pid())), "server A never took a task").toBe(true);
    expect((await taskRows(a)).map((r) => r.runs)).toEqual([1, 1, 1]);

    // Three attempts per task against a failing receiver, spaced by the back-off (1.5 s, then 3 s).
    const deadline = Date.now() + 30_000;
    while (hook.hits.length < 9 && Date.now() < deadline) await sleep(100);
    for (const id of ids) {
      const at = hook.hits.filter((h) => h.body.data.task_id === id).map((h) => h.at);
      expect(at).toHaveLength(3);
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(BACKOFF_MS - 100);
      expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(2 * BACKOFF_MS - 100);
    }
  });
});
