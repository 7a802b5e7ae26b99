// GET /api/tasks/events through the built app (`next start`, which gzips what it may): the
// signed-in user's task changes as server-sent events, as they happen, and only theirs; the
// stream's end frees its subscription. With X3D_TEST_DATABASE_URL, two servers on one
// PostgreSQL: a change made on one reaches a stream on the other.
import crypto from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, startServers, usingPostgres, type TestServer } from "../harness/server";
import { createImageTask, signUp, uploadImage } from "../harness/studio";
import { until } from "../harness/until";

const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", face: "100000", format: "2" };
const METRICS_TOKEN = `metrics-${crypto.randomBytes(6).toString("hex")}`;
const newUser = (base: string) => signUp(base, `live-${crypto.randomBytes(4).toString("hex")}@example.com`, "a long password kiln");

interface Block {
  /** When the block's last byte arrived (this machine's clock, as the server's). */
  at: number;
  event?: string;
  data?: string;
  comment?: string;
}

/** An open event stream, read block by block as the bytes arrive. */
class EventStream {
  readonly blocks: Block[] = [];
  /** The server ended the stream (not this side). */
  ended = false;
  private buffer = "";
  private readonly controller = new AbortController();
  response!: Response;

  static async open(base: string, cookie: string): Promise<EventStream> {
    const stream = new EventStream();
    // Node's fetch asks for gzip, as browsers do.
    stream.response = await fetch(`${base}/api/tasks/events`, {
      headers: { cookie, "accept-encoding": "gzip, deflate, br" },
      signal: stream.controller.signal,
    });
    void stream.pump();
    return stream;
  }

  private async pump() {
    const body = this.response.body;
    if (!body) return;
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        this.buffer += decoder.decode(part.value, { stream: true });
        let end: number;
        while ((end = this.buffer.indexOf("\n\n")) >= 0) {
          const block: Block = { at: Date.now() };
          for (const line of this.buffer.slice(0, end).split("\n")) {
            if (line.startsWith(":")) block.comment = line.slice(1).trim();
            else if (line.startsWith("event: ")) block.event = line.slice(7);
            else if (line.startsWith("data: ")) block.data = line.slice(6);
          }
          this.buffer = this.buffer.slice(end + 2);
          this.blocks.push(block);
        }
      }
      this.ended = true;
    } catch {
      // aborted by close(), or the connection cut
    }
  }

  /** The task events received so far for `id`. */
  eventsOf(id: string): Array<{ at: number; state: string; settled: boolean }> {
    return this.blocks.flatMap((b) => {
      if (b.event !== "task" || !b.data) return [];
      const data = JSON.parse(b.data) as { id: string; state: string; settled: boolean };
      return data.id === id ? [{ at: b.at, state: data.state, settled: data.settled }] : [];
    });
  }

  close() {
    this.controller.abort();
  }
}

const taskView = async (base: string, cookie: string, id: string) =>
  (await (await fetch(`${base}/api/tasks/${id}`, { headers: { cookie } })).json()) as {
    stateTimes: Record<string, string>;
    settled: boolean;
  };

describe("the task event stream of one server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ X3D_ENGINE_BALANCE: "1000", METRICS_TOKEN });
  });
  afterAll(() => server?.dispose());

  const openStreams = async () => {
    const text = await (await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    return Number(/^x3d_task_event_streams (\d+)$/m.exec(text)?.[1] ?? NaN);
  };

  it("refuses a request without a session", async () => {
    const res = await fetch(`${server.url}/api/tasks/events`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Sign in first." });
  });

  it("streams uncompressed and unbuffered: the first comment arrives at once, the user's changes as they are learned, nobody else's", async () => {
    const ann = await newUser(server.url);
    const bob = await newUser(server.url);
    const opened = Date.now();
    const annStream = await EventStream.open(server.url, ann);
    const bobStream = await EventStream.open(server.url, bob);
    try {
      const headers = annStream.response.headers;
      expect(annStream.response.status).toBe(200);
      expect(headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(headers.get("content-encoding")).toBeNull(); // not gzipped, though gzip was asked for
      expect(headers.get("cache-control")).toBe("no-cache, no-transform");
      expect(headers.get("x-accel-buffering")).toBe("no");
      await until(() => annStream.blocks.length > 0, "the stream's first bytes", 5_000);
      expect(annStream.blocks[0]).toMatchObject({ comment: "connected" });
      expect(annStream.blocks[0]!.at - opened).toBeLessThan(2_000);
      expect(await openStreams()).toBe(2);

      // No page polls this task: what the studio learns comes from the create and the service's callback.
      const upload = await uploadImage(server.url, ann);
      const id = await createImageTask(server.url, ann, upload.id, cheap);
      await until(() => annStream.eventsOf(id).some((e) => e.settled), "the task to settle on the stream", 90_000);
      const events = annStream.eventsOf(id);
      expect(events.slice(0, 2).map((e) => e.state)).toEqual(["checking", "created"]);
      expect(events.at(-1)).toMatchObject({ state: "success", settled: true });
      expect(events.filter((e) => e.settled)).toHaveLength(1);
      // Each event arrives within a second of the time the studio records for learning its state.
      const { stateTimes } = await taskView(server.url, ann, id);
      const success = events.find((e) => e.state === "success")!;
      expect(success.at - Date.parse(stateTimes.success!)).toBeLessThan(1_000);
      expect(success.at - Date.parse(stateTimes.success!)).toBeGreaterThan(-20);
      const created = events.find((e) => e.state === "created")!;
      expect(created.at - Date.parse(stateTimes.created!)).toBeLessThan(1_000);

      expect(bobStream.blocks.filter((b) => b.event)).toEqual([]);
    } finally {
      annStream.close();
      bobStream.close();
    }
    // The client went away: the server ends both streams and their subscriptions.
    await until(async () => (await openStreams()) === 0, "the closed streams to be counted out", 10_000);
  });

  it("answers a task page's poll uncompressed, with its ETag: no gzip stream per poll on the web thread", async () => {
    const ann = await newUser(server.url);
    const upload = await uploadImage(server.url, ann);
    const id = await createImageTask(server.url, ann, upload.id, cheap);
    // node:http, not fetch: fetch would undo a gzip and hide it.
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${server.url}/api/tasks/${id}`, { headers: { cookie: ann, "accept-encoding": "gzip, deflate, br", ...headers } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
    const first = await get({});
    expect(first.status).toBe(200);
    expect(first.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(first.body.toString("utf8"))).toMatchObject({ id, kind: "image-to-3d" });
    expect(first.headers["cache-control"]).toContain("no-cache");
    const etag = String(first.headers.etag);
    const again = await get({ "if-none-match": etag });
    if (again.status === 200)
      expect(again.headers.etag).not.toBe(etag); // it changed meanwhile
    else expect(again.status).toBe(304);
    // Settled before the next test stops this server, whose shutdown would otherwise wait on it.
    await until(async () => (await taskView(server.url, ann, id)).settled, "the task to settle", 60_000);
  });

  it("a stream open when the server stops ends at once and does not hold the shutdown", async () => {
    const stream = await EventStream.open(server.url, await newUser(server.url));
    await until(() => stream.blocks.length > 0, "the stream to open", 5_000);
    const exit = await server.stop();
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.ms).toBeLessThan(3_000);
    expect(stream.ended).toBe(true);
  });
});

describe.skipIf(!usingPostgres())("the task event stream across two servers (needs X3D_TEST_DATABASE_URL)", () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    [a, b] = (await startServers(2, { X3D_ENGINE_BALANCE: "1000" })) as [TestServer, TestServer];
  });
  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((s) => s.dispose()));
  });

  it("a task created and refreshed on one server is seen live by a page on the other", async () => {
    const ann = await newUser(a.url);
    const onB = await EventStream.open(b.url, ann);
    try {
      await until(() => onB.blocks.length > 0, "B's stream to open", 5_000);
      const upload = await uploadImage(a.url, ann);
      const id = await createImageTask(a.url, ann, upload.id, cheap);
      await until(() => onB.eventsOf(id).some((e) => e.settled), "B's stream to see the task settle", 90_000);
      const states = onB.eventsOf(id).map((e) => e.state);
      expect(states.slice(0, 2)).toEqual(["checking", "created"]);
      expect(states.at(-1)).toBe("success");
      // Once each: B does not repeat what it heard, and A's changes reach B once.
      expect(onB.eventsOf(id).filter((e) => e.settled)).toHaveLength(1);
      // And B answers the new state at once (its cached row was dropped when it heard the change).
      expect((await taskView(b.url, ann, id)).settled).toBe(true);
    } finally {
      onB.close();
    }
  });
});
