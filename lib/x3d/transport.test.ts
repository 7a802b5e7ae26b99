import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createX3dClient, X3dError } from "./client";
import { errorCode, mayHaveBeenSent } from "./transport";

/** A service that takes requests and then misbehaves as `mode` says. */
let server: http.Server;
let base = "";
const mode = { current: "hang" as "hang" | "stall-body" | "garbage" };
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    if (mode.current === "hang") return void held.push(res); // never answers
    if (mode.current === "garbage") return void res.writeHead(200, { "Content-Type": "text/html" }).end("<html>gateway</html>");
    res.writeHead(200, { "Content-Type": "application/json" });
    res.write('{"code":200,');
    held.push(res); // the body never ends
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise((r) => server.close(r));
});

const client = (baseUrl: string) =>
  createX3dClient({ baseUrl, clientId: "id", clientSecret: "secret-secret", timeouts: { connectMs: 300, headersMs: 400, bodyMs: 400 } });

async function failureOf(p: Promise<unknown>): Promise<X3dError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof X3dError) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

describe("the client's transport", () => {
  it("gives up on a service that takes the request and never answers, and says it may have reached it", async () => {
    mode.current = "hang";
    const started = performance.now();
    const e = await failureOf(client(base).getToken());
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(e.kind).toBe("network");
    expect(e.mayHaveReached).toBe(true);
    expect(e.message).toMatch(/no answer within 0.4 s/);
  });

  it("gives up on an answer whose body stalls", async () => {
    mode.current = "stall-body";
    const e = await failureOf(client(base).getToken());
    expect(e.kind).toBe("network");
    expect(e.mayHaveReached).toBe(true);
    expect(e.message).toMatch(/stalled/);
  });

  it("says a refused connection never reached the service", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const e = await failureOf(client(`http://127.0.0.1:${port}`).getToken());
    expect(e.kind).toBe("network");
    expect(e.mayHaveReached).toBe(false);
    expect(errorCode(e)).toBe("ECONNREFUSED");
  });

  it("counts a garbage answer as having reached the service", async () => {
    mode.current = "garbage";
    const e = await failureOf(client(base).getToken());
    expect(e.kind).toBe("response");
    expect(e.mayHaveReached).toBe(true);
  });

  it("treats an unknown failure as possibly sent", () => {
    expect(mayHaveBeenSent(new Error("something odd"))).toBe(true);
    expect(mayHaveBeenSent(Object.assign(new TypeError("fetch failed"), { cause: { code: "UND_ERR_CONNECT_TIMEOUT" } }))).toBe(false);
    expect(mayHaveBeenSent(Object.assign(new TypeError("fetch failed"), { cause: { code: "UND_ERR_SOCKET" } }))).toBe(true);
  });
});
