// Starts the built app (`next start`, or the standalone server the container image runs) as a
// child process for the service tests: a fresh data folder and, when X3D_TEST_DATABASE_URL is
// set, a fresh PostgreSQL database; or several processes sharing them (startServers), as
// several machines would.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { parseS3Url, S3Store } from "@/lib/files/store/s3";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** `npm run build`'s standalone folder (scripts/standalone.mjs), which the container image is. */
export const STANDALONE_DIR = path.join(ROOT, ".next/standalone");
export const CLIENT_ID = "test-client";
export const CLIENT_SECRET = "test-secret-0123456789";

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  /** The standalone folder the server runs in (`standalone: true`), else undefined. */
  appDir: string | undefined;
  env: Record<string, string>;
  /** Everything the server printed. */
  output: () => string;
  /** The running process's id (the engine's task owners start with it). */
  pid: () => number | undefined;
  /** Stops the process (SIGKILL when `hard`), keeping data and database; how it ended, when it was running. */
  stop: (hard?: boolean) => Promise<Exit | undefined>;
  /** Whether the server process is up. */
  running: () => boolean;
  /** Starts the same server again on the same data, database and port. */
  restart: () => Promise<void>;
  /** Stops it; the last of a group (startServers) to be disposed also removes data and database. */
  dispose: () => Promise<void>;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** From the stop signal to the exit. */
  ms: number;
}

export const usingPostgres = () => !!process.env.X3D_TEST_DATABASE_URL;

/**
 * The bucket of the S3 run (scripts/test.mjs starts s3rver and sets X3D_TEST_S3=s3://<bucket>
 * beside the AWS SDK's variables): each server group then keeps its files under a prefix of its
 * own, as it keeps its own data folder.
 */
export const usingS3 = () => !!process.env.X3D_TEST_S3;
const S3_ENV = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "AWS_ENDPOINT_URL_S3", "X3D_S3_FORCE_PATH_STYLE"];

function s3Env(dataDir: string): Record<string, string> {
  if (!usingS3()) return {};
  const env: Record<string, string> = { X3D_STORAGE: `${process.env.X3D_TEST_S3}/${path.basename(dataDir)}` };
  for (const name of S3_ENV) if (process.env[name]) env[name] = process.env[name] as string;
  return env;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** Runs one statement as X3D_TEST_DATABASE_URL's user (creating and dropping test databases). */
export async function adminQuery(q: string): Promise<void> {
  const c = new pg.Client({ connectionString: process.env.X3D_TEST_DATABASE_URL });
  await c.connect();
  try {
    await c.query(q);
  } finally {
    await c.end();
  }
}

/** A fresh database on X3D_TEST_DATABASE_URL's server, and how to drop it. */
export async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.X3D_TEST_DATABASE_URL!;
  const name = `x3d_test_${crypto.randomBytes(6).toString("hex")}`;
  const run = adminQuery;
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

export interface StartOptions {
  /** PostgreSQL (X3D_TEST_DATABASE_URL must be set) or the embedded PGlite; default: PostgreSQL when it is set. */
  postgres?: boolean;
  /** Settings for one server of a group only (startServers). */
  envOf?: (index: number) => Record<string, string>;
  /**
   * The standalone server instead of `next start`, as the image's command runs it: `node
   * server.js` in a copy of STANDALONE_DIR (standaloneCopy), listening on HOSTNAME
   * (127.0.0.1 here) and PORT.
   */
  standalone?: boolean;
  /** Make the servers (data folder, database, ports) but start none: each one's restart() starts it (a restore's fresh target). */
  stopped?: boolean;
}

/**
 * A copy of the standalone folder outside the checkout, removed with the servers. In the
 * checkout, Node would find a package the folder lacks in the checkout's node_modules above it;
 * in the image, as here, nothing stands in for it.
 */
function standaloneCopy(): string {
  if (!fs.existsSync(path.join(STANDALONE_DIR, "server.js"))) throw new Error(`no ${STANDALONE_DIR}/server.js: run npm run build first`);
  for (let dir = os.tmpdir(); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "node_modules")))
      throw new Error(`${dir}/node_modules would stand in for packages the standalone folder lacks: set TMPDIR elsewhere`);
    if (path.dirname(dir) === dir) break;
  }
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "x3d-standalone-"));
  // Links stay as written: Turbopack's .next/node_modules links point into the folder's own node_modules.
  fs.cpSync(STANDALONE_DIR, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

/** Starts a server; `extraEnv.PORT` picks its port (else a free one). */
export async function startServer(extraEnv: Record<string, string> = {}, options: StartOptions = {}): Promise<TestServer> {
  const [server] = await startServers(1, extraEnv, options);
  return server!;
}

/**
 * `count` servers, each on its own port, sharing one data folder and (with PostgreSQL) one
 * database, as machines sharing DATA_DIR and DATABASE_URL would; they boot at the same
 * time, on a database nobody has migrated yet. Each one's dispose stops it; the last one
 * removes the data and the database, so a group is disposed once whatever the order.
 */
export async function startServers(
  count: number,
  extraEnv: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TestServer[]> {
  const postgres = options.postgres ?? usingPostgres();
  const envOf = options.envOf ?? ((): Record<string, string> => ({}));
  if (postgres && !usingPostgres()) throw new Error("PostgreSQL asked for without X3D_TEST_DATABASE_URL");
  if (count > 1 && extraEnv.PORT) throw new Error("PORT can only be given for one server");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "x3d-test-"));
  const database = postgres ? await createDatabase() : undefined;
  const appDir = options.standalone ? standaloneCopy() : undefined;
  let holders = count;
  const release = async () => {
    if (--holders > 0) return;
    await database?.drop();
    // The group's objects in the S3 run's bucket go with its data folder.
    if (usingS3())
      await new S3Store(parseS3Url(process.env.X3D_TEST_S3 as string), { forcePathStyle: true }).deletePrefix(path.basename(dataDir));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
  };
  const servers: TestServer[] = [];
  for (let i = 0; i < count; i++) {
    const own = envOf(i);
    const port = own.PORT ? Number(own.PORT) : extraEnv.PORT ? Number(extraEnv.PORT) : await freePort();
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      X3D_CLIENT_ID: CLIENT_ID,
      X3D_CLIENT_SECRET: CLIENT_SECRET,
      NEXT_TELEMETRY_DISABLED: "1",
      // Copied instead of initdb for a fresh PGlite data folder (test/setup/pglite-template.ts).
      ...(process.env.X3D_PGLITE_TEMPLATE ? { X3D_PGLITE_TEMPLATE: process.env.X3D_PGLITE_TEMPLATE } : {}),
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...s3Env(dataDir),
      ...extraEnv,
      ...own,
      PORT: String(port),
    };
    servers.push(serverProcess(port, dataDir, env, release, appDir));
  }
  if (options.stopped) return servers;
  const started = await Promise.allSettled(servers.map((s) => s.restart()));
  const failure = started.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) {
    await Promise.all(servers.map((s) => s.dispose()));
    throw failure.reason;
  }
  return servers;
}

/** One server process on `port`; not started until its `restart()`. */
function serverProcess(
  port: number,
  dataDir: string,
  env: Record<string, string>,
  release: () => Promise<void>,
  /** The standalone folder to run server.js in; `next start` in the checkout without it. */
  standaloneDir?: string,
): TestServer {
  let child: ChildProcess | undefined;
  let log = "";
  let stopRequested = () => {};
  let disposed = false;
  const launch = async () => {
    const [args, cwd, own] = standaloneDir
      ? [["server.js"], standaloneDir, { HOSTNAME: "127.0.0.1" }]
      : [[path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port)], ROOT, {}];
    const started = spawn(process.execPath, args, {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", ...own, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = started;
    started.stdout.on("data", (d: Buffer) => (log += d.toString()));
    started.stderr.on("data", (d: Buffer) => (log += d.toString()));
    // An exit nobody asked for (a crash) is reported with the end of the server's log.
    let stopping = false;
    started.once("exit", (code, signal) => {
      if (!stopping && code !== 0)
        process.stderr.write(`[harness] server on port ${port} exited (${code ?? signal}). Its log ends:\n${log.slice(-4000)}\n`);
    });
    stopRequested = () => (stopping = true);
    // A worker answers only /api/health, with 200 once it reaches the database, the storage and the web servers.
    await waitUntilUp(`http://127.0.0.1:${port}${env.X3D_ROLE === "worker" ? "/api/health" : "/"}`, () => log, started);
  };
  const stop = async (hard = false): Promise<Exit | undefined> => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return undefined;
    const started = Date.now();
    const exited = new Promise<Exit>((r) => c.once("exit", (code, signal) => r({ code, signal, ms: Date.now() - started })));
    stopRequested();
    c.kill(hard ? "SIGKILL" : "SIGTERM");
    // A server that does not leave within 15 s of SIGTERM is killed, and its log shown.
    const timer = setTimeout(() => {
      process.stderr.write(`[harness] server on port ${port} ignored SIGTERM for 15 s; killing it. Its log ends:\n${log.slice(-4000)}\n`);
      c.kill("SIGKILL");
    }, 15_000);
    const exit = await exited;
    clearTimeout(timer);
    return exit;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    appDir: standaloneDir,
    env,
    output: () => log,
    pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined),
    stop,
    running: () => !!child && child.exitCode === null && child.signalCode === null,
    restart: launch,
    dispose: async () => {
      await stop();
      if (disposed) return;
      disposed = true;
      await release();
    },
  };
}

async function waitUntilUp(url: string, log: () => string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log()}`);
    try {
      const res = await fetch(url);
      // Read to the end: an unread body keeps the response, and so the server's close, waiting.
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not start:\n${log()}`);
}
