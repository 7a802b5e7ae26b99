import v8 from "node:v8";
import vm from "node:vm";
import { processConstant } from "@/lib/global-singleton";

// V8's gc(), callable as with `node --expose-gc`. Used sparingly: after work that leaves
// hundreds of MB of dead buffers behind in a thread that may then sit idle.
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/** Bodies at least this large are followed by a collection (collectAfterLargeBody). */
const LARGE_BODY_BYTES = 32 * 1024 * 1024;
const SETTLE_MS = 1000;

// One pending collection for the thread, whichever of Next's module graphs read the body.
const pending = () => processConstant<{ timer?: NodeJS.Timeout }>("x3d.collect-garbage.pending", () => ({}));

/** Collects now: a full, blocking collection of this thread's heap (tens of ms on a server's heap). */
export function collectGarbage(): void {
  gc();
}

/**
 * After a request body of `bytes` was read: when large, runs one full collection a second
 * later (several large bodies in that second share it). Next.js reads a route's body into
 * its web stream as fast as the socket gives it, so a 200 MB upload written to disk more
 * slowly sits in memory as chunks that live long enough to reach the old generation; with
 * little else allocated afterwards, V8 does not collect them for as long as the server is
 * quiet (measured: 199 MB of ArrayBuffers kept for minutes after a 198 MB upload).
 */
export function collectAfterLargeBody(bytes: number): void {
  const state = pending();
  if (bytes < LARGE_BODY_BYTES || state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = undefined;
    gc();
  }, SETTLE_MS);
  state.timer.unref();
}
