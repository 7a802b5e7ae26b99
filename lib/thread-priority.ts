import fs from "node:fs";
import os from "node:os";
import { isMainThread } from "node:worker_threads";

/** Niceness of the threads that generate and derive: below the web server's thread, still well above idle. */
export const BACKGROUND_NICE = 10;

/** The kernel's id of the calling thread ("<pid>/task/<tid>"); throws where there is no /proc. */
export function kernelThreadId(): number {
  return Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
}

/**
 * Lowers the calling thread's CPU priority (Linux: niceness is per thread, and threads it
 * starts later, such as libvips' pool, inherit it). Generation and display copies then still
 * take every idle cycle, but on a busy machine the thread answering HTTP runs first: a poll
 * no longer waits behind a 2M-triangle job for the scheduler. Elsewhere, or if refused, a no-op.
 * Returns the thread's niceness afterwards, or undefined where it cannot be told.
 */
export function lowerThreadPriority(nice = BACKGROUND_NICE): number | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const tid = kernelThreadId();
    os.setPriority(tid, nice);
    return os.getPriority(tid);
  } catch {
    return undefined;
  }
}

/**
 * Lowers every other thread of this process that runs above `nice` to it, and leaves the calling
 * thread alone: called from the thread answering HTTP when it starts background work. Besides the
 * workers (which lower themselves), a Node process runs V8's platform threads, which do the
 * garbage collectors' concurrent and parallel work for every isolate in it (a 5M-triangle job's
 * heap keeps them busy), and libuv's pool: at niceness 0 they took the CPU from the HTTP thread as
 * much as the job itself did (bench:studio part 5). Threads started afterwards by this thread
 * (libuv's pool starts on first use) inherit its niceness: the next call lowers them. Returns how
 * many threads it lowered; 0 from a worker (it would lower the HTTP thread), elsewhere than Linux
 * or if refused.
 */
export function lowerHelperThreads(nice = BACKGROUND_NICE): number {
  if (process.platform !== "linux" || !isMainThread) return 0;
  let lowered = 0;
  try {
    const self = kernelThreadId();
    for (const name of fs.readdirSync("/proc/self/task")) {
      const tid = Number(name);
      if (tid === self) continue;
      try {
        if (os.getPriority(tid) >= nice) continue;
        os.setPriority(tid, nice);
        lowered++;
      } catch {
        // the thread ended meanwhile, or the change was refused
      }
    }
  } catch {
    // no /proc
  }
  return lowered;
}
