// `npm run test:chaos` (issue 10): kill -9 the server at random moments while tasks run
// and uploads stream in, restart it, repeat; then every task the client was told about
// must end, the ledger must balance and no staging file may be left. On the embedded
// PGlite (pglite.test.ts), and on PostgreSQL when X3D_TEST_DATABASE_URL is set
// (postgres.test.ts): two files, so the two runs go at the same time, each in its own
// worker. X3D_CHAOS_SEED replays a run's choices (what is submitted, when the kills come;
// how many requests fit in between still depends on timing), X3D_CHAOS_KILLS sets how many
// kills (default 5).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture, type Envelope } from "../harness/api";
import { queryDb } from "../harness/db";
import { closeReceivers, receiver, type Hit } from "../harness/receiver";
import { CLIENT_ID, startServer, usingPostgres, type TestServer } from "../harness/server";
import { scratchRootOf } from "../harness/stored-files";
import { mulberry32 } from "@/lib/engine/generate/random";

const SEED = process.env.X3D_CHAOS_SEED ? Number(process.env.X3D_CHAOS_SEED) : crypto.randomInt(2 ** 31);
const KILLS = Number(process.env.X3D_CHAOS_KILLS ?? 5);
const START = 100_000;
const CLIENTS = 3;
/**
 * How long the tasks may take to end after the last restart: at least 150 s, and 2.5 s per
 * accepted task, since one worker thread runs the queue (a fast-answering seed accepts 130 and
 * more, which 150 s did not cover on two loaded cores: seed 2088379755 failed on it).
 */
const finalWaitMs = (accepted: number) => Math.max(150_000, accepted * 2_500);
const CALLBACK_WAIT_MS = 45_000; // a delivery cut off by a kill is retried once its 30 s claim runs out
// Housekeeping may spare staging folders young enough to be another server's live upload
// (one DATA_DIR, several servers): a body silent for X3D_ENGINE_BODY_TIMEOUT (5 s here) is dead.
const STAGING_WAIT_MS = 15_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const corrupt = (): [Blob, string] => {
  const bytes = new Uint8Array(4000).map((_, i) => (i * 7919) % 251);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return [new Blob([bytes]), "broken.png"];
};
const png = (name: string): [Blob, string] => [fixture(name), name];
const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", format: "2", face: "100000" }; // 5 credits

interface Kind {
  weight: number;
  create: string;
  query: string;
  succeeds: boolean;
  fields: () => Parameters<Api["post"]>[1];
}
/** Cheap tasks: small image-to-3D and depth maps, some with a broken image (they fail and are refunded). */
const KINDS: Kind[] = [
  { weight: 4, create: "submit-task", query: "query-task", succeeds: true, fields: () => ({ images: png("chair.png"), ...cheap }) },
  { weight: 2, create: "submit-task", query: "query-task", succeeds: true, fields: () => ({ images: png("robot.png"), ...cheap }) },
  {
    weight: 2,
    create: "depth/create-task",
    query: "depth/query-task",
    succeeds: true,
    fields: () => ({ image: png("police_woman.png"), format: "2", model_type: "base" }),
  },
  { weight: 1, create: "submit-task", query: "query-task", succeeds: false, fields: () => ({ images: corrupt(), ...cheap }) },
  { weight: 1, create: "depth/create-task", query: "depth/query-task", succeeds: false, fields: () => ({ image: corrupt(), format: "2" }) },
];
const pick = (r: number): Kind => {
  let left = r * KINDS.reduce((n, k) => n + k.weight, 0);
  for (const kind of KINDS) if ((left -= kind.weight) < 0) return kind;
  return KINDS[0]!;
};

interface Accepted {
  id: string;
  kind: Kind;
  callback: boolean;
}

interface Figures {
  database: string;
  seed: number;
  serverRuns: number;
  kills: number;
  killsMidUpload: number;
  submitted: number;
  accepted: number;
  lost: number;
  taskRuns: number;
  seconds: number;
}

interface Outcome {
  server: TestServer;
  accepted: Accepted[];
  finals: Map<string, Envelope<Record<string, string>> | Error>;
  hits: Hit[];
  apiBalance: number;
  stagingLeft: string[];
  rows: { id: string; state: string; cost: number; refunded: boolean; runs: number }[];
  balance: number;
  figures: Figures;
}

/**
 * A create request whose image part keeps arriving (16 kB every 100 ms) until the server
 * goes away: the kill lands mid-upload, with the part half written to staging.
 */
async function slowUpload(base: string, token: string, done: { now: boolean }): Promise<void> {
  const boundary = `chaos${crypto.randomBytes(8).toString("hex")}`;
  const head = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="slow.png"\r\nContent-Type: image/png\r\n\r\n`),
    fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/chair.png")),
  ]);
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new Uint8Array(head));
        return;
      }
      await sleep(100);
      if (done.now) controller.close();
      else controller.enqueue(new Uint8Array(16 * 1024));
    },
  });
  const init: RequestInit & { duplex: "half" } = {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: "half",
  };
  await fetch(`${base}/open-api/v1/submit-task`, init).then((r) => r.body?.cancel());
}

function stagingFiles(server: TestServer): string[] {
  const dir = path.join(scratchRootOf(server), "engine", "staging");
  return fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]) : [];
}

async function chaos(postgres: boolean): Promise<Outcome> {
  const started = Date.now();
  const database = postgres ? "PostgreSQL" : "PGlite";
  const server = await startServer(
    {
      X3D_ENGINE_BALANCE: String(START),
      X3D_ENGINE_MIN_TASK_SECONDS: "1",
      X3D_ENGINE_LEASE_SECONDS: "3",
      X3D_ENGINE_CONCURRENCY: "3",
      X3D_ENGINE_WORKERS: "1",
      X3D_ENGINE_ALLOW_PRIVATE_URLS: "1",
      X3D_ENGINE_CALLBACK_BACKOFF_MS: "300",
      X3D_ENGINE_BODY_TIMEOUT: "5",
    },
    { postgres },
  );
  const hook = await receiver(200);
  const api = new Api(server.url);
  const accepted: Accepted[] = [];
  const figures: Figures = {
    database,
    seed: SEED,
    serverRuns: 1,
    kills: 0,
    killsMidUpload: 0,
    submitted: 0,
    accepted: 0,
    lost: 0,
    taskRuns: 0,
    seconds: 0,
  };
  const rounds = mulberry32(SEED);

  for (let round = 0; round < KILLS; round++) {
    const stop = { now: false };
    const client = async (c: number) => {
      const rnd = mulberry32(SEED ^ (round * 7919 + c * 104729));
      while (!stop.now) {
        const kind = pick(rnd());
        const callback = rnd() < 0.3;
        figures.submitted++;
        try {
          const created = await api.post(kind.create, { ...kind.fields(), ...(callback ? { callback_url: hook.url } : {}) });
          if (created.code !== 200) throw new Error(`refused: ${JSON.stringify(created)}`);
          accepted.push({ id: created.data.task_id as string, kind, callback });
        } catch (error) {
          // The server went away with the request in flight: the client never learned of a task.
          if (!stop.now) throw error;
          figures.lost++;
        }
        await sleep(rnd() * 400);
      }
    };
    const token = await api.getToken();
    const midUpload = rounds() < 0.6;
    const upload = midUpload ? slowUpload(server.url, token, stop).catch(() => undefined) : undefined;
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
    await sleep(800 + rounds() * 3200);
    stop.now = true;
    await server.stop(true);
    figures.kills++;
    if (midUpload) figures.killsMidUpload++;
    const settled = await Promise.allSettled([...clients, upload]);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed) throw failed.reason;
    await server.restart();
    figures.serverRuns++;
  }

  // After the last restart: every task the client was told about must end.
  const finals = new Map<string, Envelope<Record<string, string>> | Error>();
  const waitStarted = Date.now();
  const deadline = waitStarted + finalWaitMs(accepted.length);
  for (const task of accepted) {
    finals.set(
      task.id,
      await api.waitFor(task.kind.query, task.id, "Bearer", Math.max(0, deadline - Date.now())).catch((e: unknown) => e as Error),
    );
  }
  const finalsAt = Date.now();
  const wanted = new Set(accepted.filter((t) => t.callback).map((t) => t.id));
  const callbackDeadline = Date.now() + CALLBACK_WAIT_MS;
  while (Date.now() < callbackDeadline && ![...wanted].every((id) => hook.hits.some((h) => h.body.data.task_id === id))) await sleep(200);
  const apiBalance = await api.balance();
  const stagingDeadline = Date.now() + STAGING_WAIT_MS;
  while (stagingFiles(server).length > 0 && Date.now() < stagingDeadline) await sleep(500);
  const stagingLeft = stagingFiles(server);
  // The embedded database is read with its server stopped.
  await server.stop();
  const rows = await queryDb<Outcome["rows"][number]>(server, "select id, state, cost, refunded, runs from engine_tasks");
  const [client] = await queryDb<{ balance: string }>(server, "select balance from engine_clients where id = $1", [CLIENT_ID]);
  figures.accepted = accepted.length;
  figures.taskRuns = rows.reduce((n, r) => n + r.runs, 0);
  figures.seconds = Math.round((Date.now() - started) / 1000);
  console.log(
    `[chaos] ${database}: seed ${SEED}; ${figures.serverRuns} server runs, ${figures.kills} kills (${figures.killsMidUpload} mid-upload); ` +
      `${figures.submitted} submissions, ${figures.accepted} accepted, ${figures.lost} cut off by a kill, ${rows.length} tasks in the database, ` +
      `${figures.taskRuns} task runs; ${figures.seconds} s (the tasks ended ${Math.round((finalsAt - waitStarted) / 1000)} s after the last restart)`,
  );
  return { server, accepted, finals, hits: hook.hits, apiBalance, stagingLeft, rows, balance: Number(client!.balance), figures };
}

/** The suite on one database; on PostgreSQL it is skipped when X3D_TEST_DATABASE_URL is not set. */
export function chaosSuite(postgres: boolean): void {
  describe.skipIf(postgres && !usingPostgres())(`kill -9 while tasks run, restart, repeat (${postgres ? "PostgreSQL" : "PGlite"})`, () => {
    let run: Outcome;
    beforeAll(async () => {
      run = await chaos(postgres);
    }, 900_000);
    afterAll(async () => {
      closeReceivers();
      await run?.server.dispose();
    });

    it("kills landed while tasks were being accepted and run", () => {
      expect(run.figures.kills).toBe(KILLS);
      expect(run.accepted.length).toBeGreaterThan(KILLS);
      // Some task was cut off mid-processing and run again.
      expect(run.figures.taskRuns).toBeGreaterThan(run.rows.length);
    });

    it("every accepted task reaches a final state: success, or failed for a broken input", () => {
      const wrong = run.accepted.flatMap((t) => {
        const final = run.finals.get(t.id);
        if (final instanceof Error) return [`${t.id}: ${final.message}`];
        const state = final?.code === 200 ? final.data.state : "failed";
        if (t.kind.succeeds ? state !== "success" : final?.code !== (t.kind.create === "submit-task" ? 50010001 : 5001001)) {
          return [`${t.id}: ${JSON.stringify(final)}`];
        }
        return [];
      });
      expect(wrong).toEqual([]);
    });

    it("the ledger balances: starting balance − balance = Σ cost of the tasks not refunded, and exactly the failed ones were refunded", () => {
      const charged = run.rows.filter((r) => !r.refunded).reduce((n, r) => n + r.cost, 0);
      expect(START - run.balance).toBe(charged);
      expect(run.apiBalance).toBe(run.balance);
      expect(run.rows.filter((r) => r.refunded !== (r.state === "failed"))).toEqual([]);
      // Every accepted task is in the ledger.
      const ids = new Set(run.rows.map((r) => r.id));
      expect(run.accepted.filter((t) => !ids.has(t.id))).toEqual([]);
    });

    it("every callback asked for arrives (at least once) with the final state", () => {
      const missing = run.accepted
        .filter((t) => t.callback)
        .filter(
          (t) => !run.hits.some((h) => h.body.data.task_id === t.id && h.body.data.state === (t.kind.succeeds ? "success" : "failed")),
        );
      expect(missing.map((t) => t.id)).toEqual([]);
    });

    it("no staging file is left after the final restart", () => {
      expect(run.stagingLeft).toEqual([]);
    });
  });
}
