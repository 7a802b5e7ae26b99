import { afterEach, describe, expect, it, vi } from "vitest";
import { TaskChangeBus, type TaskChange } from "./bus";
import { EVENT_STREAM_HEADERS, RETRY_MS, taskEventFrame, taskEventStream } from "./event-stream";

const decoder = new TextDecoder();
const change = (state: TaskChange["state"], settled = false): TaskChange => ({ userId: "ann", taskId: "t1", state, settled });

/** Reads what the stream has queued so far (each read resolves with one enqueued chunk). */
async function readChunks(reader: ReadableStreamDefaultReader<Uint8Array>, n: number): Promise<string> {
  let text = "";
  for (let i = 0; i < n; i++) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  return text;
}

afterEach(() => vi.useRealTimers());

describe("the task event stream", () => {
  it("frames a change as an SSE event named task, with id, state and settled only (not the user)", () => {
    expect(taskEventFrame(change("processing"))).toBe('event: task\ndata: {"id":"t1","state":"processing","settled":false}\n\n');
    expect(taskEventFrame({ userId: "ann", taskId: 'a"b', state: "deleted", settled: true })).toBe(
      'event: task\ndata: {"id":"a\\"b","state":"deleted","settled":true}\n\n',
    );
  });

  it("sends headers that keep it unbuffered and uncompressed", () => {
    expect(EVENT_STREAM_HEADERS).toEqual({
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
      Connection: "close",
    });
  });

  it("opens with the retry delay, then carries the subscribed user's changes as they come", async () => {
    const bus = new TaskChangeBus();
    const stream = taskEventStream({ subscribe: (l) => bus.subscribe("ann", l), signal: new AbortController().signal });
    const reader = stream.getReader();
    expect(await readChunks(reader, 1)).toBe(`retry: ${RETRY_MS}\n: connected\n\n`);
    bus.deliver(change("queueing"));
    bus.deliver({ ...change("processing"), userId: "bob" }); // someone else's
    bus.deliver(change("success", true));
    expect(await readChunks(reader, 2)).toBe(
      'event: task\ndata: {"id":"t1","state":"queueing","settled":false}\n\n' +
        'event: task\ndata: {"id":"t1","state":"success","settled":true}\n\n',
    );
    await reader.cancel();
  });

  it("sends a heartbeat comment every interval", async () => {
    vi.useFakeTimers();
    const bus = new TaskChangeBus();
    const reader = taskEventStream({
      subscribe: (l) => bus.subscribe("ann", l),
      signal: new AbortController().signal,
      heartbeatMs: 15_000,
    }).getReader();
    await readChunks(reader, 1);
    vi.advanceTimersByTime(15_000);
    expect(await readChunks(reader, 1)).toBe(": heartbeat\n\n");
    vi.advanceTimersByTime(15_000);
    expect(await readChunks(reader, 1)).toBe(": heartbeat\n\n");
    await reader.cancel();
  });

  it("ends and unsubscribes when the client goes away (request aborted), once", async () => {
    const bus = new TaskChangeBus();
    const client = new AbortController();
    const onClose = vi.fn();
    const reader = taskEventStream({ subscribe: (l) => bus.subscribe("ann", l), signal: client.signal, onClose }).getReader();
    await readChunks(reader, 1);
    expect(bus.size).toBe(1);
    client.abort();
    expect(bus.size).toBe(0);
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    await reader.cancel();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("ends and unsubscribes when the reader cancels, or when the server stops", async () => {
    const bus = new TaskChangeBus();
    const onClose = vi.fn();
    const cancelled = taskEventStream({
      subscribe: (l) => bus.subscribe("ann", l),
      signal: new AbortController().signal,
      onClose,
    }).getReader();
    expect(bus.size).toBe(1);
    await cancelled.cancel();
    expect(bus.size).toBe(0);
    expect(onClose).toHaveBeenCalledTimes(1);

    const stopping = new AbortController();
    const reader = taskEventStream({
      subscribe: (l) => bus.subscribe("ann", l),
      signal: new AbortController().signal,
      stop: stopping.signal,
    }).getReader();
    await readChunks(reader, 1);
    stopping.abort();
    expect(bus.size).toBe(0);
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it("a request aborted before the stream starts subscribes nothing that lasts", async () => {
    const bus = new TaskChangeBus();
    const client = new AbortController();
    client.abort();
    const reader = taskEventStream({ subscribe: (l) => bus.subscribe("ann", l), signal: client.signal }).getReader();
    expect(bus.size).toBe(0);
    expect(await readChunks(reader, 2)).toBe(`retry: ${RETRY_MS}\n: connected\n\n`);
  });
});
