/**
 * The studio's one client without X3D_BASE_URL: the embedded service of this app over
 * loopback on PORT, with the embedded client pair. The environment is the edge here:
 * `serverEnv` answers what the test sets; a loopback server stands in for the service.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { usingLiveService, x3d } from "./service";

const env = vi.hoisted(() => ({ current: {} as Record<string, unknown> }));
vi.mock("@/lib/env", () => ({ serverEnv: () => env.current }));

const seen: { path: string; auth: string }[] = [];
const server = http.createServer((req, res) => {
  seen.push({ path: req.url ?? "", auth: req.headers.authorization ?? "" });
  const body = req.url?.endsWith("/auth/token")
    ? { code: 200, msg: "success", data: { accessToken: "tok", tokenType: "Bearer", nonce: "n" } }
    : { code: 200, msg: "success", data: { totalBalance: 7 } };
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("the studio's service client without X3D_BASE_URL", () => {
  it("talks to the embedded service on PORT over loopback with the embedded pair", async () => {
    env.current = { PORT: port, X3D_CLIENT_ID: "embedded-id", X3D_CLIENT_SECRET: "embedded-secret" };
    expect(usingLiveService()).toBe(false);
    await x3d().balance();
    expect(seen).toEqual([
      { path: "/open-api/v1/auth/token", auth: `Basic ${Buffer.from("embedded-id:embedded-secret").toString("base64")}` },
      { path: "/open-api/v1/balance", auth: "Bearer tok" },
    ]);
  });
});
