import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOnlyHealth, workerRefusal } from "./worker-gate";

describe("workerRefusal", () => {
  it("lets GET and HEAD /api/health through, with a query or a trailing slash", () => {
    for (const [method, url] of [
      ["GET", "/api/health"],
      ["HEAD", "/api/health"],
      ["GET", "/api/health?verbose=1"],
      ["GET", "/api/health/"],
      ["GET", "/api/health//"],
      ["GET", "/api/health#top"],
      ["GET", "/api/health/?a=/b"],
    ])
      expect(workerRefusal(method, url), `${method} ${url}`).toBeNull();
  });

  it("refuses every other path or method with 404 and a sentence saying it is a worker", () => {
    for (const [method, url] of [
      ["GET", "/"],
      ["GET", "/api/tasks/abc"],
      ["POST", "/api/uploads"],
      ["POST", "/open-api/v1/submit-task"],
      ["GET", "/open-api/v1/files/x/result.glb"],
      ["POST", "/api/health"],
      ["GET", "/api/healthz"],
      ["GET", "/api/health/../tasks"],
      ["GET", "/x?/api/health"],
      ["GET", "/api/healthy/"],
      ["GET", "//api/health"],
      [undefined, undefined],
    ] as const) {
      const refusal = workerRefusal(method, url);
      expect(refusal?.status, `${method} ${url}`).toBe(404);
      expect(JSON.parse(refusal!.body)).toEqual({
        error:
          "This is a worker (X3D_ROLE=worker): it runs the work and answers only GET /api/health. Pages and APIs are on the web servers.",
      });
    }
  });
});

describe("serveOnlyHealth", () => {
  let server: http.Server;
  let base: string;
  const seen: string[] = [];
  beforeAll(async () => {
    serveOnlyHealth();
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.end("from the app");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("answers refused requests before the app sees them, bodies and all", async () => {
    const upload = await fetch(`${base}/api/uploads`, { method: "POST", body: Buffer.alloc(2_000_000) });
    expect(upload.status).toBe(404);
    expect(upload.headers.get("content-type")).toBe("application/json");
    expect(upload.headers.get("cache-control")).toBe("no-store");
    expect((await upload.json()).error).toContain("X3D_ROLE=worker");
    const page = await fetch(`${base}/tasks`);
    expect(page.status).toBe(404);
    await page.arrayBuffer();
    const health = await fetch(`${base}/api/health`);
    expect(await health.text()).toBe("from the app");
    expect(seen).toEqual(["GET /api/health"]);
  });

  it("passes on every other event, and what the listeners answered", () => {
    const events: unknown[] = [];
    server.once("x3d-test", (...args: unknown[]) => events.push(args));
    expect(server.emit("x3d-test", "a", 1)).toBe(true);
    expect(server.emit("x3d-unheard")).toBe(false);
    expect(events).toEqual([["a", 1]]);
    // A "request" event without Node's request and response objects is not gated: the app sees it.
    const ended: string[] = [];
    expect(server.emit("request", { method: "GET", url: "/tasks" }, { end: (body: string) => ended.push(body) })).toBe(true);
    expect(seen.at(-1)).toBe("GET /tasks");
    expect(ended).toEqual(["from the app"]);
  });
});
