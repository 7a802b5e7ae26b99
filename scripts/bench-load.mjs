// `npm run bench:load`: the embedded service under steady load (issue 10, "Fair load").
// Starts the built app on loopback with a fresh DATA_DIR (PGlite; BENCH_DATABASE_URL for
// PostgreSQL), then for --seconds (default 300) submits 50 tasks a minute through the Open
// API while 200 pollers each ask a query route about a random accepted task once a second.
// Before the load it measures the same 200 pollers on an idle server, the reference the
// load figures are quoted against. It is a report, not a test: it exits 0 whether the goal
// (query p99 ≤ 250 ms, 0 errors, 0 timeouts) is met or not, 1 only when it could not run.
//
// Flags: --seconds=N (load phase, default 300), --rate=N (submits a minute, default 50),
// --pollers=N (default 200), --no-build (never build; an existing stale build is used).
//
// --roles (issue 29): web servers and workers (X3D_ROLE). Needs BENCH_DATABASE_URL, a PostgreSQL
// server it makes a throwaway database on for each setup. The same 200 pollers query a web
// server, idle and then for --seconds (default 45) while heavy tasks (the studio's default
// image-to-3D, 2M faces) keep two generation threads busy: first one server doing everything
// (X3D_ROLE=all, two worker threads), then one web server and two workers (one thread each),
// on the same machine, then the same with the workers pinned to one CPU and the web server to
// another (taskset), as workers on machines of their own; and unpinned with the generation threads
// at nice 19 instead of the app's 10 (reniced by the bench). Goal: the web server's p99 while both
// workers generate within 1.5× of idle.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import pg from "pg";
import { OpenApi } from "./bench-studio/studio.mjs";
import { FIXTURES, Server, ensureBuild, fmt, percentile, sleep, table, cleanupNow } from "./bench-studio/common.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k, v ?? "true"];
  }),
);
const ROLES = args.roles === "true";
const SECONDS = Number(args.seconds ?? (ROLES ? 45 : 300));
const RATE = Number(args.rate ?? 50);
const POLLERS = Number(args.pollers ?? 200);
const IDLE_SECONDS = 15;
const WARM_UP_SECONDS = 5;
const REQUEST_TIMEOUT_MS = 60_000;
const GOAL_P99_MS = 250;

/** What is submitted, in turn: mostly light tasks, every fifth the studio's default image-to-3D. */
const MIX = [
  {
    route: "submit-task",
    query: "query-task",
    image: "images",
    fields: { model: "x3dv1.5", resolution: "512", face: "100000", request_type: "1", format: "2" },
  },
  { route: "depth/create-task", query: "depth/query-task", image: "image", fields: { format: "3", width: "60" } },
  {
    route: "submit-task",
    query: "query-task",
    image: "images",
    fields: { model: "x3dv1.5", resolution: "512", face: "100000", request_type: "1", format: "1" },
  },
  { route: "depth/create-task", query: "depth/query-task", image: "image", fields: { format: "2", model_type: "base" } },
  {
    route: "submit-task",
    query: "query-task",
    image: "images",
    fields: { model: "x3dv3.0", resolution: "2048quality", face: "2000000", request_type: "3", pbr: "1", format: "2" },
  },
];
const IMAGE = fs.readFileSync(path.join(FIXTURES, "robot.png"));

class Client extends OpenApi {
  /** One request timed: { ms, status, code, body } or { ms, error } (timeouts say so). */
  async timed(route, init = {}) {
    const t = performance.now();
    try {
      const res = await fetch(`${this.base}/open-api/v1/${route}`, {
        ...init,
        headers: { Authorization: this.bearer, ...init.headers },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const body = await res.json();
      return { ms: performance.now() - t, status: res.status, code: body.code, body };
    } catch (e) {
      return { ms: performance.now() - t, error: e.name === "TimeoutError" ? "timeout" : e.message };
    }
  }

  submit(kind) {
    const form = new FormData();
    form.append(kind.image, new Blob([IMAGE], { type: "image/png" }), "robot.png");
    for (const [k, v] of Object.entries(kind.fields)) form.append(k, v);
    return this.timed(kind.route, { method: "POST", body: form });
  }

  query(route, taskId) {
    return this.timed(`${route}?task_id=${encodeURIComponent(taskId)}`);
  }
}

/** 200 loops asking about random accepted tasks once a second each, until `until`. */
async function poll(client, tasks, until, record) {
  const loop = async (i) => {
    // Spread the pollers over the first second.
    await sleep((i / POLLERS) * 1000);
    while (Date.now() < until) {
      const started = Date.now();
      const task = tasks[Math.floor(Math.random() * tasks.length)];
      record(await client.query(task.query, task.id));
      await sleep(Math.max(0, 1000 - (Date.now() - started)));
    }
  };
  await Promise.all(Array.from({ length: POLLERS }, (_, i) => loop(i)));
}

function summarize(samples, seconds) {
  const ok = samples.filter((s) => !s.error && s.status < 500 && s.code === 200);
  const latencies = samples.filter((s) => s.error !== "timeout").map((s) => s.ms);
  return {
    n: samples.length,
    perSecond: samples.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    errors: samples.length - ok.length - samples.filter((s) => s.error === "timeout").length,
    timeouts: samples.filter((s) => s.error === "timeout").length,
    firstError: samples.find((s) => s.error || s.status >= 500 || s.code !== 200),
  };
}

async function main() {
  console.log(`build: ${ensureBuild({ allowStale: !!args["no-build"] })}`);
  const server = await new Server("load", { X3D_ENGINE_CONCURRENCY: "1000" }).start();
  const db = process.env.BENCH_DATABASE_URL ? "PostgreSQL (BENCH_DATABASE_URL)" : "PGlite (embedded)";
  console.log(
    `environment: ${os.availableParallelism()} cores, node ${process.version}; database ${db}; server pid ${server.pid} on ${server.base}`,
  );
  const client = new Client(server.base);
  await client.token();

  // A few tasks to poll, finished before the reference window so it sees an idle server.
  const tasks = [];
  for (const kind of MIX.slice(0, 2)) {
    const answer = await client.submit(kind);
    if (answer.code !== 200) throw new Error(`seed task refused: ${JSON.stringify(answer.body ?? answer.error)}`);
    tasks.push({ id: answer.body.data.task_id, query: kind.query });
  }
  for (const task of tasks) {
    for (;;) {
      const a = await client.query(task.query, task.id);
      if (["success", "failed"].includes(a.body?.data?.state)) break;
      await sleep(200);
    }
  }

  console.log(`reference: ${POLLERS} pollers, 1 query/s each, idle server, ${IDLE_SECONDS} s…`);
  const idle = [];
  await poll(client, tasks, Date.now() + IDLE_SECONDS * 1000, (s) => idle.push(s));

  console.log(
    `load: ${RATE} submits/min (mix: ${MIX.map((k) => `${k.route} ${k.fields.model ?? `format ${k.fields.format}`}`).join(", ")}) + ${POLLERS} pollers for ${SECONDS} s…`,
  );
  const until = Date.now() + SECONDS * 1000;
  const loaded = [];
  const submits = [];
  const submitter = (async () => {
    const every = 60_000 / RATE;
    const inFlight = [];
    for (let i = 0; Date.now() < until; i++) {
      const kind = MIX[i % MIX.length];
      inFlight.push(
        client.submit(kind).then((a) => {
          submits.push(a);
          if (a.code === 200) tasks.push({ id: a.body.data.task_id, query: kind.query });
        }),
      );
      await sleep(Math.max(0, every * (i + 1) - (Date.now() - (until - SECONDS * 1000))));
    }
    await Promise.all(inFlight);
  })();
  await Promise.all([poll(client, tasks, until, (s) => loaded.push(s)), submitter]);

  const states = {};
  for (const task of tasks) {
    const a = await client.query(task.query, task.id);
    const state = a.body?.data?.state ?? `error ${a.code ?? a.error}`;
    states[state] = (states[state] ?? 0) + 1;
  }
  await server.dispose();

  const ref = summarize(idle, IDLE_SECONDS);
  const load = summarize(loaded, SECONDS);
  const sub = summarize(submits, SECONDS);
  const verdict = load.p99 <= GOAL_P99_MS && load.errors === 0 && load.timeouts === 0 ? "PASS" : "MISS";
  console.log("\n=== bench:load report ===");
  console.log(
    table([
      ["figure", "queries (idle ref)", "queries (under load)", "submits", "goal", "verdict"],
      ["requests", String(ref.n), String(load.n), String(sub.n), "", ""],
      ["per second", fmt(ref.perSecond), fmt(load.perSecond), fmt(sub.perSecond * 60, 1) + "/min", `${POLLERS}/s, ${RATE}/min`, ""],
      ["p50", `${fmt(ref.p50, 1)} ms`, `${fmt(load.p50, 1)} ms`, `${fmt(sub.p50, 0)} ms`, "", ""],
      [
        "p99",
        `${fmt(ref.p99, 1)} ms`,
        `${fmt(load.p99, 1)} ms (${fmt(load.p99 / ref.p99, 1)}× idle)`,
        `${fmt(sub.p99, 0)} ms`,
        `≤ ${GOAL_P99_MS} ms`,
        verdict,
      ],
      ["max", `${fmt(ref.max, 0)} ms`, `${fmt(load.max, 0)} ms`, `${fmt(sub.max, 0)} ms`, "", ""],
      ["errors", String(ref.errors), String(load.errors), String(sub.errors), "0", load.errors === 0 ? "PASS" : "MISS"],
      ["timeouts (60 s)", String(ref.timeouts), String(load.timeouts), String(sub.timeouts), "0", load.timeouts === 0 ? "PASS" : "MISS"],
    ]),
  );
  if (load.firstError) console.log(`first failed query: ${JSON.stringify(load.firstError.error ?? load.firstError.body).slice(0, 300)}`);
  if (sub.firstError) console.log(`first failed submit: ${JSON.stringify(sub.firstError.error ?? sub.firstError.body).slice(0, 300)}`);
  console.log(
    `tasks at the end: ${Object.entries(states)
      .map(([s, n]) => `${n} ${s}`)
      .join(", ")} (generation was busy for the whole window)`,
  );
  console.log(
    `load average now ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; the bench's own client runs on the same cores.`,
  );
}

/** A throwaway database on BENCH_DATABASE_URL's server: its URL and how to drop it. */
async function throwawayDatabase() {
  const admin = process.env.BENCH_DATABASE_URL;
  const name = `x3d_bench_${crypto.randomBytes(5).toString("hex")}`;
  const run = async (q) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

const HEAVY = MIX[4];

/** One setup of --roles: its started servers polled idle and while two threads generate (the caller stops them). */
/**
 * Every thread of `pids` running at `from` niceness set to `to`: what generation at another
 * niceness than the app's (lib/thread-priority.ts) would give, without rebuilding. Linux only.
 */
function renice(pids, from, to) {
  for (const pid of pids) {
    let tids = [];
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        // Field 19 of stat is the niceness; the command name (field 2) may hold spaces, so count from its ")".
        const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const nice = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
        if (nice === from) os.setPriority(Number(tid), to);
      } catch {
        // gone
      }
    }
  }
}

async function rolesSetup(label, servers, web, { nice } = {}) {
  const client = new Client(web.base);
  await client.token();
  const light = await client.submit(MIX[0]);
  if (light.code !== 200) throw new Error(`seed task refused: ${JSON.stringify(light.body ?? light.error)}`);
  const tasks = [{ id: light.body.data.task_id, query: MIX[0].query }];
  for (;;) {
    const a = await client.query(tasks[0].query, tasks[0].id);
    if (["success", "failed"].includes(a.body?.data?.state)) break;
    await sleep(200);
  }
  // A few seconds of the same polling first, not counted: the routes' first answers (compiling,
  // opening connections) would otherwise set the idle p99.
  await poll(client, tasks, Date.now() + WARM_UP_SECONDS * 1000, () => {});
  console.log(`${label}: ${POLLERS} pollers on the web server, idle, ${IDLE_SECONDS} s…`);
  const idle = [];
  await poll(client, tasks, Date.now() + IDLE_SECONDS * 1000, (s) => idle.push(s));

  // Heavy tasks, topped up every second so that two are generating and more wait for the whole window.
  const heavy = [];
  const submitHeavy = async () => {
    const a = await client.submit(HEAVY);
    if (a.code !== 200) throw new Error(`heavy task refused: ${JSON.stringify(a.body ?? a.error)}`);
    heavy.push(a.body.data.task_id);
  };
  for (let i = 0; i < 4; i++) await submitHeavy();
  await until(async () => (await states(client, heavy)).processing >= 2, 120_000);
  if (nice !== undefined)
    renice(
      servers.map((s) => s.servingPid),
      10,
      nice,
    );
  console.log(`${label}: both threads generating; ${POLLERS} pollers for ${SECONDS} s…`);
  const busy = [];
  const stop = Date.now() + SECONDS * 1000;
  let samples = 0;
  let both = 0;
  const watcher = (async () => {
    while (Date.now() < stop) {
      // Generation threads start with the app's niceness (10); this setup runs them at `nice`.
      if (nice !== undefined)
        renice(
          servers.map((s) => s.servingPid),
          10,
          nice,
        );
      samples++;
      const now = await states(client, heavy);
      if (now.processing >= 2) both++;
      for (let i = now.processing + now.queueing; i < 4; i++) await submitHeavy();
      await sleep(1000);
    }
  })();
  await Promise.all([poll(client, [...tasks, ...heavy.map((id) => ({ id, query: HEAVY.query }))], stop, (s) => busy.push(s)), watcher]);
  return { label, idle: summarize(idle, IDLE_SECONDS), busy: summarize(busy, SECONDS), both: both / Math.max(1, samples) };
}

/** How many of `ids` are generating now, and how many wait. */
async function states(client, ids) {
  const answers = await Promise.all(ids.map((id) => client.query(HEAVY.query, id)));
  const count = (state) => answers.filter((a) => a.body?.data?.state === state).length;
  return { processing: count("processing"), queueing: count("queueing") };
}

async function until(check, ms) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("the heavy tasks never ran two at a time");
    await sleep(500);
  }
}

async function roles() {
  if (!process.env.BENCH_DATABASE_URL)
    throw new Error(
      "--roles needs BENCH_DATABASE_URL, a PostgreSQL server to make throwaway databases on: web servers and workers share one",
    );
  console.log(`build: ${ensureBuild({ allowStale: !!args["no-build"] })}`);
  console.log(`environment: ${os.availableParallelism()} cores, node ${process.version}; PostgreSQL (BENCH_DATABASE_URL)`);
  const results = [];
  // One server doing everything; then a web server and two workers sharing every core, with
  // generation at nice 19, and with the workers on a core of their own and the web server on
  // another, as workers on machines of their own would be. Each on a database of its own.
  const pinned = os.availableParallelism() >= 2;
  const setups = [{ all: true }, { pin: false }, { pin: false, nice: 19 }, ...(pinned ? [{ pin: true }] : [])];
  for (const { all, pin, nice } of setups) {
    const database = await throwawayDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "x3d-bench-roles-"));
    const shared = { DATABASE_URL: database.url, X3D_ENGINE_CONCURRENCY: "1000", X3D_ENGINE_WORKERS: all ? "2" : "1" };
    const web = new Server(all ? "all" : "web", { ...shared, X3D_ROLE: all ? "all" : "web" }, { dataDir, cpus: pin ? "0" : undefined });
    const servers = [web];
    try {
      await web.start();
      if (all) {
        results.push(await rolesSetup("one server (X3D_ROLE=all, 2 threads)", servers, web));
        continue;
      }
      // The workers name the app by the web server's address, as web servers and workers of one install do.
      const workerEnv = { ...shared, X3D_ROLE: "worker", X3D_WEB_URL: web.base, APP_URL: web.base, X3D_ENGINE_PUBLIC_URL: web.base };
      for (const n of [1, 2]) {
        const worker = new Server(`worker-${n}`, workerEnv, { dataDir, ready: "/api/health", cpus: pin ? "1" : undefined });
        servers.push(worker);
        await worker.start();
      }
      const label = pin
        ? "web server on CPU 0, two workers on CPU 1"
        : `one web server + two workers (1 thread each${nice === undefined ? "" : `, generating at nice ${nice}`})`;
      results.push(await rolesSetup(label, servers, web, { nice }));
    } finally {
      await Promise.all(servers.map((s) => s.dispose()));
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const GOAL = 1.5;
  console.log("\n=== bench:load --roles report (web server's query latency) ===");
  console.log(
    table([
      ["setup", "idle p50", "idle p99", "generating p50", "generating p99", "p99 ratio", "both threads busy", "goal", "verdict"],
      ...results.map((r) => {
        const ratio = r.busy.p99 / r.idle.p99;
        const clean = r.busy.errors === 0 && r.busy.timeouts === 0;
        return [
          r.label,
          `${fmt(r.idle.p50, 1)} ms`,
          `${fmt(r.idle.p99, 1)} ms`,
          `${fmt(r.busy.p50, 1)} ms`,
          `${fmt(r.busy.p99, 1)} ms`,
          `${fmt(ratio, 2)}×`,
          `${fmt(100 * r.both, 0)}% of samples`,
          `≤ ${GOAL}× idle, 0 errors`,
          ratio <= GOAL && clean ? "PASS" : `MISS${clean ? "" : ` (${r.busy.errors} errors, ${r.busy.timeouts} timeouts)`}`,
        ];
      }),
    ]),
  );
  console.log(`requests: ${results.map((r) => `${r.label}: ${r.idle.n} idle, ${r.busy.n} generating`).join("; ")}`);
}

(ROLES ? roles() : main()).catch((e) => {
  console.error(`bench:load could not run: ${e.stack ?? e}`);
  cleanupNow();
  process.exit(1);
});
