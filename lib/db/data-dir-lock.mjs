// The embedded database's lock: one process at a time opens DATA_DIR/pglite. PGlite has no
// lock of its own (it runs PostgreSQL single-user in WebAssembly, with no postmaster.pid), and two
// processes writing one cluster lose writes. A plain module so that the server (lib/db/index.ts)
// and `npm run restore` (scripts/restore.mjs) take the same lock.
//
// DATA_DIR/pglite.lock names its holder: pid, what it is, and the process's start time. Like
// PostgreSQL's postmaster.pid it outlives a holder killed with -9, so a lock whose process is
// gone is taken over: no process with that pid, a zombie, or a process with that pid that started
// at another time (the pid was reused, or another container's). The file sits beside pglite/,
// not in it, so copies of the cluster (a test template) never carry it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const LOCK_NAME = "pglite.lock";
/** The `code` of the error refusing a DATA_DIR another process holds: a server stops on it (instrumentation.ts). */
export const DATA_DIR_IN_USE = "X3D_DATA_DIR_IN_USE";

/**
 * @typedef {{ pid: number, by: string, started: string | null, host: string, at: string }} LockHolder
 */

/**
 * The kernel's start time of `pid` (clock ticks since boot, as text) and whether it is a zombie;
 * null where /proc has no such process or there is no /proc.
 * @param {number} pid
 * @returns {{ started: string, zombie: boolean } | null}
 */
export function processStart(pid) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read from the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { started: fields[19], zombie: fields[0] === "Z" || fields[0] === "X" };
}

/**
 * Whether the holder a lock names still runs.
 * @param {LockHolder} holder
 */
export function holderAlive(holder) {
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return false;
  if (fs.existsSync("/proc/self/stat")) {
    const now = processStart(holder.pid);
    if (!now || now.zombie) return false;
    return holder.started === null || holder.started === now.started;
  }
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/** @param {string} file @returns {LockHolder | null} */
function readHolder(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/**
 * Takes DATA_DIR's lock for this process (`by` says what holds it: "server", "restore"), or
 * throws an error naming the folder and the process that holds it. A lock this process holds
 * already is taken again (a database closed and opened anew). Returns the release, which removes
 * the file if it is still this process's.
 * @param {string} dataDir
 * @param {string} by
 * @returns {() => void}
 */
export function lockDataDir(dataDir, by) {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_NAME);
  /** @type {LockHolder} */
  const me = {
    pid: process.pid,
    by,
    started: processStart(process.pid)?.started ?? null,
    host: os.hostname(),
    at: new Date().toISOString(),
  };
  const text = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written aside, then linked into place: link fails if the lock exists, and the lock never exists half written.
    const partial = `${file}.${process.pid}-${Date.now()}`;
    fs.writeFileSync(partial, text, { mode: 0o600 });
    try {
      fs.linkSync(partial, file);
      return release(file, me);
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
    } finally {
      fs.rmSync(partial, { force: true });
    }
    const holder = readHolder(file);
    if (holder && holder.pid === process.pid) {
      fs.writeFileSync(file, text, { mode: 0o600 });
      return release(file, me);
    }
    if (holder && holderAlive(holder))
      throw Object.assign(
        new Error(
          `${dataDir} is in use: its embedded database is open in another process (pid ${holder.pid}, ${holder.by}, on ${holder.host} since ${holder.at}). ` +
            `Stop that process, or give this one its own DATA_DIR; if no such process runs, delete ${file}.`,
        ),
        { code: DATA_DIR_IN_USE },
      );
    // Its holder is gone (killed, or the machine restarted): the lock is moved aside, and the next
    // turn takes it. Moved, not removed, so that of two processes taking over at once the second
    // does not remove the first's new lock: what it moved aside is put back if it is not the dead one.
    const aside = `${file}.stale-${process.pid}-${Date.now()}`;
    try {
      fs.renameSync(file, aside);
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "ENOENT") throw error;
      continue;
    }
    const moved = readHolder(aside);
    if (moved && holder && (moved.pid !== holder.pid || moved.at !== holder.at)) {
      try {
        fs.linkSync(aside, file);
      } catch {
        // Another lock is in place already: the next turn reads it.
      }
    }
    fs.rmSync(aside, { force: true });
  }
  throw new Error(`could not take ${file}: other processes keep taking it`);
}

/** @param {string} file @param {LockHolder} me */
function release(file, me) {
  return () => {
    const holder = readHolder(file);
    if (holder && holder.pid === me.pid && holder.at === me.at) fs.rmSync(file, { force: true });
  };
}
