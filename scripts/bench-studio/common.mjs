// Shared pieces of `npm run bench:studio` and `npm run bench:engine`: the build check, the
// server process, /proc sampling, statistics and the report table.
import { execSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildState } from "../build-state.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURES = path.join(ROOT, "test/fixtures");
export const HOST = "127.0.0.1";
export const CLIENT_ID = "bench-studio-client";
export const CLIENT_SECRET = "bench-studio-secret-0123456789";
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "—");
export const MB = 1024 * 1024;
export const log = (...a) => console.log(...a);

// ---------------------------------------------------------------- clean-up

/** Everything to undo on exit: servers, browsers, temp dirs. Run once, synchronously or not. */
const cleanups = [];
export function onCleanup(fn) {
  cleanups.push(fn);
  return () => {
    const i = cleanups.indexOf(fn);
    if (i >= 0) cleanups.splice(i, 1);
  };
}
/** Synchronous last resort (exit, signals): kills what is left, removes temp dirs. */
export function cleanupNow() {
  while (cleanups.length) {
    try {
      cleanups.pop()();
    } catch {
      // keep going
    }
  }
}

export function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// ---------------------------------------------------------------- build

/** Builds (npm run build) when the build is missing or older than the sources, as scripts/start.mjs does. */
export function ensureBuild({ allowStale }) {
  const state = buildState();
  if (state === "fresh") return "existing build";
  if (state === "stale" && allowStale) return "stale build kept (--no-build)";
  log(
    state === "stale" ? "The sources changed since the last build: building (npm run build)…" : "No build yet: building (npm run build)…",
  );
  const t = performance.now();
  execSync("npm run build", { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  return `built now in ${fmt((performance.now() - t) / 1000, 0)} s`;
}

// ---------------------------------------------------------------- ports

/** `wanted` when it is free on loopback, else (or without one) a free port. */
export function freePort(wanted = 0) {
  const tryListen = (port) =>
    new Promise((resolve) => {
      const s = net.createServer();
      s.once("error", () => resolve(undefined));
      s.listen(port, HOST, () => {
        const got = s.address().port;
        s.close(() => resolve(got));
      });
    });
  return tryListen(wanted)
    .then((p) => p ?? tryListen(0))
    .then((p) => p ?? Promise.reject(new Error("no free port on loopback")));
}

// ---------------------------------------------------------------- server

/** The built app (`next start`) on loopback with a fresh DATA_DIR (PGlite, or BENCH_DATABASE_URL). */
export class Server {
  child;
  dataDir;
  out = "";

  /**
   * `port`: the port to take when it is free (default: any free one). `dataDir`: a DATA_DIR shared
   * with other servers (the caller removes it; default: a fresh one of its own). `ready`: the
   * path that answers 200 once it is up (a worker answers only /api/health). `cpus`: see below.
   */
  constructor(name, extraEnv = {}, { port = 0, dataDir, ready = "/sign-in", cpus } = {}) {
    /** `cpus`: the CPUs it may run on (taskset -c), e.g. "1"; default any. */
    this.cpus = cpus;
    this.name = name;
    this.extraEnv = extraEnv;
    this.wantedPort = port;
    this.sharedDataDir = dataDir;
    this.readyPath = ready;
  }

  async start() {
    this.port = await freePort(this.wantedPort);
    this.base = `http://${HOST}:${this.port}`;
    this.dataDir = this.sharedDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "x3d-bench-studio-"));
    this.env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(this.port),
      DATA_DIR: this.dataDir,
      APP_URL: this.base,
      X3D_ENGINE_PUBLIC_URL: this.base,
      X3D_CLIENT_ID: CLIENT_ID,
      X3D_CLIENT_SECRET: CLIENT_SECRET,
      X3D_ENGINE_BALANCE: "100000000",
      // As `npm start` runs the server (scripts/start.mjs).
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
      // BENCH_DATABASE_URL: an empty PostgreSQL database to run on instead of PGlite.
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
      // BENCH_SERVER_ENV: more of the server's environment, as JSON (an experiment's settings).
      ...(process.env.BENCH_SERVER_ENV ? JSON.parse(process.env.BENCH_SERVER_ENV) : {}),
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
      ...this.extraEnv,
    };
    // BENCH_NODE_ARGS: node's own arguments for the server (V8 flags NODE_OPTIONS refuses), space-separated.
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
    const command = [
      process.execPath,
      ...nodeArgs,
      path.join(ROOT, "node_modules/next/dist/bin/next"),
      "start",
      "-H",
      HOST,
      "-p",
      String(this.port),
    ];
    // taskset execs the server: the pid stays the server's.
    const [file, ...args] = this.cpus ? ["taskset", "-c", this.cpus, ...command] : command;
    this.child = spawn(file, args, {
      cwd: ROOT,
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.removeCleanup = onCleanup(() => this.disposeNow());
    const keep = (d) => {
      this.out += d.toString();
      if (this.out.length > 200_000) this.out = this.out.slice(-100_000);
    };
    this.child.stdout.on("data", keep);
    this.child.stderr.on("data", keep);
    this.child.once("error", (e) => keep(`spawn error: ${e.message}\n`));
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (!this.alive()) throw new Error(`server exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.tail()}`);
      try {
        const res = await fetch(`${this.base}${this.readyPath}`, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        if (res.status === 200) return this;
      } catch {
        // not listening yet
      }
      await sleep(150);
    }
    throw new Error(`server did not answer within ${START_TIMEOUT_MS / 1000} s`);
  }

  get pid() {
    return this.child?.pid;
  }

  /** The process that serves requests: `next start`'s child next-server when there is one, else itself. */
  get servingPid() {
    const kids = descendants(this.pid);
    return kids.length ? kids[kids.length - 1] : this.pid;
  }

  alive() {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async dispose() {
    const c = this.child;
    if (c && this.alive()) {
      const exited = new Promise((r) => c.once("exit", r));
      c.kill("SIGTERM");
      const timers = [];
      await Promise.race([
        exited,
        new Promise((r) => {
          timers.push(setTimeout(() => this.alive() && c.kill("SIGKILL"), STOP_TIMEOUT_MS));
          timers.push(setTimeout(r, STOP_TIMEOUT_MS + 5000));
        }),
      ]);
      timers.forEach(clearTimeout);
    }
    this.disposeNow();
    this.removeCleanup?.();
  }

  disposeNow() {
    // The whole tree: a next-server child must not outlive us.
    for (const pid of [...descendants(this.pid), this.pid]) {
      try {
        if (pid) process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    if (this.dataDir && !this.sharedDataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
    this.dataDir = undefined;
  }

  tail(lines = 30) {
    return this.out.trimEnd().split("\n").slice(-lines).join("\n");
  }
}

// ---------------------------------------------------------------- /proc

export function descendants(pid) {
  const out = [];
  if (!pid) return out;
  try {
    for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
      const kids = fs.readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim();
      if (kids) for (const k of kids.split(/\s+/).map(Number)) out.push(k, ...descendants(k));
    }
  } catch {
    // gone
  }
  return out;
}

/** VmRSS in kB of `pid` and all its descendants. */
export function treeRssKb(pid) {
  let total = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) total += Number(m[1]);
    } catch {
      // gone
    }
  }
  return total;
}

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux
/** The fields after the command name of a /proc stat file (utime is [11], stime [12], nice [16]), or null. */
function statFields(statPath) {
  try {
    const s = fs.readFileSync(statPath, "utf8");
    return s.slice(s.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** utime+stime in ms of a process (all threads) or of one thread (`/proc/<pid>/task/<tid>/stat`). */
export function cpuMs(statPath) {
  const f = statFields(statPath);
  return f ? (Number(f[11]) + Number(f[12])) * TICK_MS : NaN;
}

/** Per-thread CPU ms of a process, keyed by tid, with each thread's name and niceness. */
export function threadCpu(pid) {
  const out = new Map();
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      const f = statFields(`/proc/${pid}/task/${tid}/stat`);
      out.set(tid, { name, ms: f ? (Number(f[11]) + Number(f[12])) * TICK_MS : NaN, nice: f ? Number(f[16]) : NaN });
    }
  } catch {
    // gone
  }
  return out;
}

// ---------------------------------------------------------------- statistics and report

export function median(values) {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

export function percentile(values, p) {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return NaN;
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
}

export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? "").length)));
  const line = (r) =>
    r
      .map((c, i) => String(c ?? "").padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

/** One figure of the report: value text, goal text, PASS/MISS (or "—" without a goal). */
export function figure(part, name, value, goal, pass, note = "") {
  return { part, name, value, goal: goal ?? "—", verdict: goal ? (pass ? "PASS" : "MISS") : "—", note };
}

export function missing(part, name, goal, reason) {
  return { part, name, value: "—", goal: goal ?? "—", verdict: goal ? "MISS" : "—", note: reason };
}

export const kB = (bytes) => `${fmt(bytes / 1024, 1)} kB`;
export const mB = (bytes) => `${fmt(bytes / MB, 1)} MB`;
export const ms = (v) => `${fmt(v, 0)} ms`;

// ---------------------------------------------------------------- a quiet machine

function cpuTimes() {
  const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + (f[4] || 0);
  return { idle, total: f.reduce((a, b) => a + b, 0) };
}

/**
 * Waits until the machine is mostly idle (≥ `idleShare` of all cores over 300 ms), at most
 * `maxMs`: a run should not start while the last one's teardown still burns CPU. Returns the
 * wait in ms and the last idle share.
 */
export async function waitQuiet({ maxMs = 10_000, idleShare = 0.85 } = {}) {
  const t0 = performance.now();
  let share = 0;
  while (performance.now() - t0 < maxMs) {
    const a = cpuTimes();
    await sleep(300);
    const b = cpuTimes();
    share = (b.idle - a.idle) / Math.max(1, b.total - a.total);
    if (share >= idleShare) break;
  }
  return { waitedMs: performance.now() - t0, idleShare: share };
}
