import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import { and, asc, inArray, isNull, lt, sql } from "drizzle-orm";
import { database, db } from "@/lib/db";
import { engineTasks } from "@/lib/db/schema";
import { engineConfig } from "./config";
import { fileStore } from "@/lib/files/store";
import { engineScratch, INSTANCE, isTaskId, removeTaskFiles, stagingInstance, taskPrefix } from "./tasks/store";
import { log, withLogContext } from "@/lib/log";

/**
 * How long past the body timeout nothing may have changed in a task folder without a task (or a
 * staging folder named by an older release, which names no server) before it counts as a
 * crash's leftover. A live create request writes into its staging folder at least every
 * X3D_ENGINE_BODY_TIMEOUT while its body arrives (else it is given up and the folder removed),
 * then validates and moves its files into the task folder and commits the task row within
 * seconds. An hour more is far beyond any live request, also one of another server sharing DATA_DIR.
 */
const LEFTOVER_MARGIN_MS = 60 * 60_000;
/** Tasks handled per database round trip. */
const BATCH = 200;
const MAX_INTERVAL_MS = 15 * 60_000;
const MIN_INTERVAL_MS = 1_000;

/**
 * Housekeeping runs every quarter of the retention period, so files are removed at most 25 %
 * late; at most 15 minutes apart (a crash's leftovers need no hurry), at least 1 s.
 */
export function housekeepingIntervalMs(retentionMs: number | null): number {
  if (retentionMs === null) return MAX_INTERVAL_MS;
  return Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, Math.round(retentionMs / 4)));
}

interface HousekeepingReport {
  /** Task folders without a task row (the request died before committing it). */
  orphans: number;
  /** Finished tasks whose files were removed. */
  expired: number;
}

/**
 * Runs housekeeping now and then on a timer, one pass at a time, in every server; and, every
 * third of the lease, keeps this server's marker fresh and removes the staging folders of
 * servers that stopped (a kill -9 mid-upload), which no live request can own.
 */
export class Housekeeper {
  private timer?: NodeJS.Timeout;
  private stagingTimer?: NodeJS.Timeout;
  private pass?: Promise<void>;
  private stagingPass?: Promise<void>;
  private readonly stopping = new AbortController();
  /** Numbers the passes, for their lines' request id ("sweep:<n>"). */
  private sweeps = 0;

  start(): void {
    this.sweepStaging();
    this.run();
    this.timer = setInterval(() => this.run(), housekeepingIntervalMs(engineConfig().retentionMs));
    this.timer.unref();
    this.stagingTimer = setInterval(() => this.sweepStaging(), Math.max(1000, engineConfig().leaseMs / 3));
    this.stagingTimer.unref();
  }

  /** Ends the timers; a pass under way stops after the folder or batch it is on. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.stagingTimer);
    this.stopping.abort();
    await Promise.all([this.pass, this.stagingPass]);
  }

  private sweepStaging(): void {
    if (this.stagingPass || this.stopping.signal.aborted) return;
    this.stagingPass = withLogContext(`sweep:${++this.sweeps}`, () =>
      sweepStaging(this.stopping.signal).then(
        (removed) => {
          if (removed > 0) log.info(`[x3d engine] housekeeping: removed ${removed} upload folder(s) of create requests that died`);
        },
        (error: unknown) => log.error({ err: error }, "[x3d engine] housekeeping (staging) failed"),
      ),
    ).finally(() => (this.stagingPass = undefined));
  }

  private run(): void {
    if (this.pass || this.stopping.signal.aborted) return;
    this.pass = withLogContext(`sweep:${++this.sweeps}`, () =>
      housekeep(this.stopping.signal).then(logReport, (error: unknown) => log.error({ err: error }, "[x3d engine] housekeeping failed")),
    ).finally(() => (this.pass = undefined));
  }
}

function logReport(report: HousekeepingReport): void {
  const { retentionMs } = engineConfig(); // files expire only when it is set
  const done = [
    report.orphans && `removed ${report.orphans} task folder(s) without a task`,
    report.expired &&
      retentionMs !== null &&
      `removed the files of ${report.expired} task(s) finished over ${retentionMs / 3_600_000} h ago`,
  ].filter(Boolean);
  if (done.length > 0) log.info(`[x3d engine] housekeeping: ${done.join("; ")}`);
}

/**
 * One pass: removes the task folders without a task that a crash left (see
 * LEFTOVER_MARGIN_MS), and the files of tasks finished more than X3D_ENGINE_RETENTION_HOURS
 * ago, recording that on their rows. Safe to run in several servers at once.
 */
async function housekeep(signal: AbortSignal): Promise<HousekeepingReport> {
  const config = engineConfig();
  const leftoverBefore = Date.now() - config.bodyIdleMs - LEFTOVER_MARGIN_MS;
  const orphans = await removeOrphanTaskFolders(leftoverBefore, signal);
  const expired = config.retentionMs === null ? 0 : await expireFinished(new Date(Date.now() - config.retentionMs), signal);
  return { orphans, expired };
}

/** Names in `dir`, none when it does not exist yet. */
async function names(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
}

/** The last time anything changed in a (flat) folder: the folder's own entries, or a file's contents. Null when it is gone. */
async function lastChange(dir: string): Promise<number | null> {
  const own = await fs.stat(dir).catch(() => null);
  if (!own?.isDirectory()) return null;
  let newest = own.mtimeMs;
  for (const name of await names(dir)) {
    const entry = await fs.stat(path.join(dir, name)).catch(() => null);
    if (entry) newest = Math.max(newest, entry.mtimeMs);
  }
  return newest;
}

async function removeIfUnchangedSince(dir: string, before: number): Promise<boolean> {
  const changed = await lastChange(dir);
  if (changed === null || changed >= before) return false;
  await fs.rm(dir, { recursive: true, force: true });
  return true;
}

/** Removes the stored files of tasks that have no row (a crash between storing an upload and inserting the task), once unchanged since `before`. */
async function removeOrphanTaskFolders(before: number, signal: AbortSignal): Promise<number> {
  const store = fileStore();
  const newest = new Map<string, number>();
  for await (const file of store.list("engine/tasks")) {
    const id = file.key.split("/")[2];
    if (id && isTaskId(id)) newest.set(id, Math.max(newest.get(id) ?? 0, file.lastModified));
  }
  const database = await db();
  const ids = [...newest.keys()];
  let removed = 0;
  for (let i = 0; i < ids.length && !signal.aborted; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const rows = await database.select({ id: engineTasks.id }).from(engineTasks).where(inArray(engineTasks.id, batch));
    const known = new Set(rows.map((r) => r.id));
    for (const id of batch) {
      if (known.has(id) || (newest.get(id) ?? before) >= before) continue;
      await store.deletePrefix(taskPrefix(id));
      removed++;
    }
  }
  return removed;
}

/**
 * Removes the folders of tasks finished before `before` and marks their rows. The folder goes
 * first: a crash in between leaves a row still unmarked, which the next pass handles again.
 */
async function expireFinished(before: Date, signal: AbortSignal): Promise<number> {
  const database = await db();
  let expired = 0;
  while (!signal.aborted) {
    const rows = await database
      .select({ id: engineTasks.id })
      .from(engineTasks)
      .where(and(isNull(engineTasks.filesExpiredAt), lt(engineTasks.finishedAt, before)))
      .orderBy(asc(engineTasks.finishedAt))
      .limit(BATCH);
    if (rows.length === 0) break;
    const ids = rows.map((r) => r.id);
    for (const id of ids) await removeTaskFiles(id);
    await database
      .update(engineTasks)
      .set({ filesExpiredAt: sql`now()` })
      .where(and(inArray(engineTasks.id, ids), isNull(engineTasks.filesExpiredAt)));
    expired += ids.length;
    if (rows.length < BATCH) break;
  }
  return expired;
}

/** Marks this server alive: touches engine/instances/<INSTANCE>; returns that folder. */
async function markAlive(): Promise<string> {
  const instances = engineScratch("instances");
  await fs.mkdir(instances, { recursive: true });
  const marker = path.join(instances, INSTANCE);
  const now = new Date();
  await fs.utimes(marker, now, now).catch(() => fs.writeFile(marker, ""));
  return instances;
}

/**
 * Keeps this server's marker fresh every third of the lease, without housekeeping: a web server
 * (X3D_ROLE=web) stages uploads but leaves housekeeping to the workers, whose staging sweeps
 * tell by the marker that its folders are live. Returns the function that stops it.
 */
export function keepMarkedAlive(): () => void {
  const mark = () => void markAlive().catch((error: unknown) => log.warn({ err: error }, "[x3d engine] could not mark this server alive"));
  mark();
  const timer = setInterval(mark, Math.max(1000, engineConfig().leaseMs / 3));
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Marks this server alive (engine/instances/<INSTANCE>), then removes the staging folders of
 * every other server that is not: with the embedded database no other server can be (PGlite's
 * files are one process's), with PostgreSQL one whose marker is older than the lease plus two
 * body timeouts. Their uploads can no longer be written to nor reach a task. Returns how many
 * folders went.
 */
async function sweepStaging(signal: AbortSignal): Promise<number> {
  const config = engineConfig();
  const instances = await markAlive();
  const shared = (await database()).kind === "postgres";
  const deadBefore = Date.now() - config.leaseMs - 2 * config.bodyIdleMs;
  const alive = new Map<string, boolean>([[INSTANCE, true]]);
  const isAlive = async (instance: string): Promise<boolean> => {
    let known = alive.get(instance);
    if (known === undefined) {
      const seen = shared ? await fs.stat(path.join(instances, instance)).catch(() => null) : null;
      known = !!seen && seen.mtimeMs >= deadBefore;
      alive.set(instance, known);
    }
    return known;
  };
  const root = engineScratch("staging");
  let removed = 0;
  for (const name of await names(root)) {
    if (signal.aborted) break;
    const instance = stagingInstance(name);
    if (instance === undefined) {
      // An older release's folder: no server named, so age alone tells.
      if (await removeIfUnchangedSince(path.join(root, name), Date.now() - config.bodyIdleMs - LEFTOVER_MARGIN_MS)) removed++;
    } else if (!(await isAlive(instance))) {
      await fs.rm(path.join(root, name), { recursive: true, force: true });
      removed++;
    }
  }
  // Markers of servers gone long since: nothing of theirs is left to tell apart.
  for (const name of await names(instances)) {
    if (name === INSTANCE) continue;
    const seen = await fs.stat(path.join(instances, name)).catch(() => null);
    if (seen && seen.mtimeMs < Date.now() - 24 * 3_600_000) await fs.rm(path.join(instances, name), { force: true });
  }
  return removed;
}
