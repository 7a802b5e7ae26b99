import fs from "node:fs";
import os from "node:os";

/** Niceness of the threads that generate and derive: below the web server's thread, still well above idle. */
export const BACKGROUND_NICE = 10;

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
    // "<pid>/task/<tid>": the kernel's id of this very thread.
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    os.setPriority(tid, nice);
    return os.getPriority(tid);
  } catch {
    return undefined;
  }
}
