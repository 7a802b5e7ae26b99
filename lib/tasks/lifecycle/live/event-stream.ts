import type { TaskChange, TaskChangeListener } from "./bus";

/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** How long the browser's EventSource waits before it reconnects a dropped stream. */
export const RETRY_MS = 3_000;

/**
 * The stream's headers. `no-transform`: `next start` gzips compressible answers, this one too
 * without it (it flushes the compressor after each chunk, so events still came through, but
 * every event then depends on that flush); with it the stream goes out plain, and a proxy that
 * honours it does not recompress it either. `X-Accel-Buffering: no` asks nginx not to buffer it.
 * `Connection: close`: a stream ends only when the server stops, and its connection, idle but
 * kept alive, then held the stop 3 s longer (an HTTP/2 proxy drops the header; it is HTTP/1.1's).
 */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "close",
};

/** One change as a server-sent event: `event: task` with the task's id, state and whether it settled (never its user). */
export function taskEventFrame(change: TaskChange): string {
  return `event: task\ndata: ${JSON.stringify({ id: change.taskId, state: change.state, settled: change.settled })}\n\n`;
}

export interface TaskEventStreamOptions {
  /** Subscribes to the signed-in user's task changes; returns the unsubscribe. */
  subscribe: (listener: TaskChangeListener) => () => void;
  /** The request's signal: aborted when the client goes away. */
  signal: AbortSignal;
  /** Ends the stream too (the server stopping: an open stream must not hold the shutdown). */
  stop?: AbortSignal;
  heartbeatMs?: number;
  /** Called once, when the stream ends for whatever reason. */
  onClose?: () => void;
}

/**
 * The body of GET /api/tasks/events: a first comment (so the headers leave and the browser's
 * EventSource opens at once), then one event per change, a heartbeat comment every
 * `heartbeatMs`; the subscription ends with the stream, however it ends.
 */
export function taskEventStream(options: TaskEventStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let close = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close(); // the consumer is gone
        }
      };
      const unsubscribe = options.subscribe((change) => send(taskEventFrame(change)));
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), options.heartbeatMs ?? HEARTBEAT_MS);
      close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        options.signal.removeEventListener("abort", close);
        options.stop?.removeEventListener("abort", close);
        try {
          controller.close();
        } catch {
          // already closed or errored by the consumer
        }
        options.onClose?.();
      };
      options.signal.addEventListener("abort", close);
      options.stop?.addEventListener("abort", close);
      send(`retry: ${RETRY_MS}\n: connected\n\n`);
      if (options.signal.aborted || options.stop?.aborted) close();
    },
    cancel() {
      close();
    },
  });
}
