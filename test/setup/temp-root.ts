// Vitest's global setup (vitest.config.ts): the run's temporary files go under one folder of
// its own (TMPDIR, read by os.tmpdir() in every test process forked after this), removed when
// the run ends. Whatever a test file left there is named and fails the run: a leaked folder
// per file and run once filled a CI machine's disk. Test files remove their own
// (test/harness/temp-dir.ts). Listed after pglite-template.ts, whose cluster is kept across runs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Caches tools keep under TMPDIR by design (tsx's compile cache, for the scripts tests run). */
const TOOL_CACHES = /^tsx-\d+$/;

/** What the run's test files left in `root`, tools' caches aside. */
export function leftovers(root: string): string[] {
  return fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => !TOOL_CACHES.test(name))
        .sort()
    : [];
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Removes the run folders in `tmp` of runs whose process is gone: a run killed before its
 * teardown (a mutation run's test runner past its time limit, Ctrl-C) leaves its folder. Returns their names.
 */
export function removeStaleRoots(tmp: string): string[] {
  const stale = fs.readdirSync(tmp).filter((name) => {
    const pid = /^x3d-vitest-(\d+)-/.exec(name)?.[1];
    return pid !== undefined && !alive(Number(pid));
  });
  for (const name of stale) fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
  return stale;
}

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  removeStaleRoots(os.tmpdir());
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `x3d-vitest-${process.pid}-`));
  process.env.TMPDIR = root;
  return () => {
    const left = leftovers(root);
    fs.rmSync(root, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (!left.length) return;
    // Vitest logs an error thrown here and still exits 0, so the exit code is set instead.
    console.error(
      `\nFAILED: test files left ${left.length} temporary entr${left.length === 1 ? "y" : "ies"} behind: ${left.join(", ")}. ` +
        "Make them with tempDir() (test/harness/temp-dir.ts), which removes them after the file's tests.",
    );
    process.exitCode = 1;
  };
}
