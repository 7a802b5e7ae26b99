// `npm start`'s build step, safe for several `npm start` at once in one checkout (two
// servers on two ports): one builds, the others wait for it and then find the build fresh.
// Without it both ran `next build` into one .next: Next's own lock made the second exit,
// or the second rebuilt .next under the first, already serving.
import fs from "node:fs";
import path from "node:path";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/**
 * Runs `fn` holding `lockDir`, a folder created exclusively that names its holder's pid; a
 * lock whose holder died (killed mid-build) is taken over.
 * @template T
 * @param {string} lockDir
 * @param {() => Promise<T> | T} fn
 * @param {{ onWait?: () => void }} [options]
 * @returns {Promise<T>}
 */
export async function withLock(lockDir, fn, options = {}) {
  let waited = false;
  for (;;) {
    try {
      fs.mkdirSync(path.dirname(lockDir), { recursive: true });
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, "pid"), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      let holder = NaN;
      try {
        holder = Number(fs.readFileSync(path.join(lockDir, "pid"), "utf8"));
      } catch {
        // just created, pid not written yet: wait
      }
      if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (!waited) options.onWait?.();
      waited = true;
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Builds when `state()` is not "fresh", one process at a time; the state is read again once
 * the lock is held, so a process that waited for another's build does not repeat it.
 * @param {{ lockDir: string, state: () => string, build: () => void | Promise<void> }} how
 */
export async function buildOnce({ lockDir, state, build }) {
  if (state() === "fresh") return;
  await withLock(
    lockDir,
    async () => {
      if (state() !== "fresh") await build();
    },
    { onWait: () => console.log("Waiting for another `npm start` to finish building...") },
  );
}
