/**
 * The studio's one client with X3D_BASE_URL set: the live service, with its credentials, or
 * refused without them. The environment is the edge here: `serverEnv` answers what each test
 * sets (it caches process.env otherwise), and a loopback server stands in for the service.
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

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

// In this order: a refused configuration keeps no client; the live one is then kept.
describe("the studio's service client with X3D_BASE_URL", () => {
  it.each([
    { credentials: { X3D_CLIENT_ID: "live-id" }, missing: "X3D_CLIENT_SECRET" },
    { credentials: { X3D_CLIENT_SECRET: "live-secret" }, missing: "X3D_CLIENT_ID" },
  ])("refuses a configuration without $missing", ({ credentials }) => {
    env.current = { X3D_BASE_URL: "https://x3d.example", PORT: 3000, ...credentials };
    expect(() => x3d()).toThrow("X3D_BASE_URL needs X3D_CLIENT_ID and X3D_CLIENT_SECRET");
    expect(usingLiveService()).toBe(true);
  });

  it("talks to the live service with its credentials, and keeps one client", async () => {
    env.current = { X3D_BASE_URL: `http://127.0.0.1:${port}/live`, X3D_CLIENT_ID: "live-id", X3D_CLIENT_SECRET: "live-secret", PORT: 1 };
    expect(x3d()).toBe(x3d());
    await expect(x3d().balance()).resolves.toEqual({ totalBalance: 7 });
    expect(seen).toEqual([
      { path: "/live/open-api/v1/auth/token", auth: basic("live-id", "live-secret") },
      { path: "/live/open-api/v1/balance", auth: "Bearer tok" },
    ]);
  });
});
