import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LOCK_NAME, holderAlive, lockDataDir, processStart } from "./data-dir-lock.mjs";

const dirs: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "x3d-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const lockOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, LOCK_NAME), "utf8"));
function writeLock(dir: string, holder: Record<string, unknown>) {
  fs.writeFileSync(
    path.join(dir, LOCK_NAME),
    JSON.stringify({ by: "server", host: "elsewhere", at: "2026-01-01T00:00:00.000Z", ...holder }),
  );
}
/** A pid no process has: one that ran and has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  return child.pid as number;
}

describe("lockDataDir", () => {
  it("takes a free DATA_DIR, naming this process, and its release removes the lock", () => {
    const dir = dataDir();
    const release = lockDataDir(dir, "server");
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, by: "server", started: processStart(process.pid)?.started, host: os.hostname() });
    expect(fs.readdirSync(dir)).toEqual([LOCK_NAME]);
    release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("creates DATA_DIR when it does not exist yet", () => {
    const dir = path.join(dataDir(), "not", "yet");
    lockDataDir(dir, "server");
    expect(lockOf(dir).pid).toBe(process.pid);
  });

  it("refuses a DATA_DIR a live process holds, naming the folder, the pid and the lock, and leaves its lock", () => {
    const dir = dataDir();
    const holder = { pid: process.ppid, started: processStart(process.ppid)?.started ?? null };
    writeLock(dir, holder);
    const before = fs.readFileSync(path.join(dir, LOCK_NAME), "utf8");
    expect(() => lockDataDir(dir, "server")).toThrow(
      `${dir} is in use: its embedded database is open in another process (pid ${process.ppid}, server, on elsewhere since 2026-01-01T00:00:00.000Z)`,
    );
    expect(() => lockDataDir(dir, "restore")).toThrow(`delete ${path.join(dir, LOCK_NAME)}`);
    expect(fs.readFileSync(path.join(dir, LOCK_NAME), "utf8")).toBe(before);
    expect(fs.readdirSync(dir)).toEqual([LOCK_NAME]);
  });

  it("takes over a lock whose process is gone (killed with -9: nothing removed it)", () => {
    const dir = dataDir();
    writeLock(dir, { pid: deadPid(), started: "1" });
    lockDataDir(dir, "server");
    expect(lockOf(dir).pid).toBe(process.pid);
    expect(fs.readdirSync(dir)).toEqual([LOCK_NAME]);
  });

  it("takes over a lock whose pid now belongs to a process that started at another time (a reused pid)", () => {
    const dir = dataDir();
    writeLock(dir, { pid: process.ppid, started: "12345" });
    lockDataDir(dir, "server");
    expect(lockOf(dir).pid).toBe(process.pid);
  });

  it("takes over a lock of a zombie (killed, not yet reaped)", async () => {
    const dir = dataDir();
    // A shell that starts a child and then waits forever without reaping it: once killed, the child is a zombie.
    const parent = spawn("sh", ["-c", "sleep 60 & echo $!; exec sleep 60 > /dev/null"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const pid = Number((await new Promise<Buffer>((resolve) => parent.stdout.once("data", resolve))).toString().trim());
      const started = processStart(pid)?.started ?? null;
      expect(holderAlive({ pid, by: "server", started, host: "h", at: "t" })).toBe(true);
      process.kill(pid, "SIGKILL");
      await expect.poll(() => processStart(pid)?.zombie).toBe(true);
      writeLock(dir, { pid, started });
      lockDataDir(dir, "server");
      expect(lockOf(dir).pid).toBe(process.pid);
    } finally {
      parent.kill("SIGKILL");
    }
  });

  it("takes its own lock again (a database closed and opened anew in one process)", () => {
    const dir = dataDir();
    lockDataDir(dir, "server");
    const first = lockOf(dir);
    const release = lockDataDir(dir, "restore");
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, by: "restore" });
    expect(lockOf(dir).at >= first.at).toBe(true);
    release();
    expect(fs.existsSync(path.join(dir, LOCK_NAME))).toBe(false);
  });

  it("takes over an unreadable lock (not JSON)", () => {
    const dir = dataDir();
    fs.writeFileSync(path.join(dir, LOCK_NAME), "garbage");
    lockDataDir(dir, "server");
    expect(lockOf(dir).pid).toBe(process.pid);
  });

  it("a release leaves a lock that is no longer this holder's", () => {
    const dir = dataDir();
    const release = lockDataDir(dir, "server");
    writeLock(dir, { pid: process.ppid, started: processStart(process.ppid)?.started ?? null });
    release();
    expect(lockOf(dir).pid).toBe(process.ppid);
  });

  it("of two processes taking a DATA_DIR at once, one holds it and the other is refused", async () => {
    const dir = dataDir();
    writeLock(dir, { pid: deadPid(), started: "1" });
    const lockModule = path.resolve("lib/db/data-dir-lock.mjs");
    const script = `
      const { lockDataDir } = await import(${JSON.stringify(lockModule)});
      try { lockDataDir(${JSON.stringify(dir)}, "server"); console.log("held"); } catch (e) { console.log(e.message.includes("is in use") ? "refused" : "error " + e.message); }
      await new Promise((r) => process.stdin.once("data", r));
    `;
    const children = [0, 1, 2].map(() =>
      spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] }),
    );
    try {
      const answers = await Promise.all(
        children.map((child) => new Promise<string>((resolve) => child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim())))),
      );
      expect(answers.sort()).toEqual(["held", "refused", "refused"]);
      expect(children.map((c) => c.pid)).toContain(lockOf(dir).pid);
    } finally {
      for (const child of children) child.stdin.end("bye");
    }
  });
});
