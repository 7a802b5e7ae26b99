/**
 * Which service the studio's one client talks to: the live one when X3D_BASE_URL is set (with
 * its credentials), else the embedded one over loopback on PORT. A loopback server stands in
 * for either and records the calls.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

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
beforeEach(() => {
  seen.length = 0;
  vi.resetModules();
});
afterEach(() => vi.unstubAllEnvs());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

describe("the studio's service client", () => {
  it("talks to the live service with its credentials when X3D_BASE_URL is set, and keeps one client", async () => {
    vi.stubEnv("X3D_BASE_URL", `http://127.0.0.1:${port}/live`);
    vi.stubEnv("X3D_CLIENT_ID", "live-id");
    vi.stubEnv("X3D_CLIENT_SECRET", "live-secret");
    const { x3d, usingLiveService } = await import("./service");
    expect(usingLiveService()).toBe(true);
    expect(x3d()).toBe(x3d());
    await expect(x3d().balance()).resolves.toEqual({ totalBalance: 7 });
    expect(seen).toEqual([
      { path: "/live/open-api/v1/auth/token", auth: basic("live-id", "live-secret") },
      { path: "/live/open-api/v1/balance", auth: "Bearer tok" },
    ]);
  });

  it.each([
    ["X3D_CLIENT_ID", "X3D_CLIENT_SECRET"],
    ["X3D_CLIENT_SECRET", "X3D_CLIENT_ID"],
  ])("refuses X3D_BASE_URL with %s but no %s", async (set, unset) => {
    vi.stubEnv("X3D_BASE_URL", "https://x3d.example");
    vi.stubEnv(set, "value");
    vi.stubEnv(unset, "");
    const { x3d } = await import("./service");
    expect(() => x3d()).toThrow("X3D_BASE_URL needs X3D_CLIENT_ID and X3D_CLIENT_SECRET");
  });

  it("talks to the embedded service on PORT over loopback without X3D_BASE_URL", async () => {
    vi.stubEnv("X3D_BASE_URL", "");
    vi.stubEnv("PORT", String(port));
    vi.stubEnv("X3D_CLIENT_ID", "embedded-id");
    vi.stubEnv("X3D_CLIENT_SECRET", "embedded-secret");
    const { x3d, usingLiveService } = await import("./service");
    expect(usingLiveService()).toBe(false);
    await x3d().balance();
    expect(seen).toEqual([
      { path: "/open-api/v1/auth/token", auth: basic("embedded-id", "embedded-secret") },
      { path: "/open-api/v1/balance", auth: "Bearer tok" },
    ]);
  });
});
