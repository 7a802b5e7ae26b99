import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, basic, type Envelope } from "../harness/api";
import { startServer, type TestServer } from "../harness/server";

let server: TestServer;
let api: Api;

beforeAll(async () => {
  server = await startServer();
  api = new Api(server.url);
});
afterAll(() => server?.dispose());

const tokenCall = (init: RequestInit) => fetch(`${server.url}/open-api/v1/auth/token`, { method: "POST", ...init });

describe("auth/token", () => {
  it("issues a Bearer token with msg, message and a nonce, for an empty body or {}", async () => {
    for (const body of [undefined, "{}"]) {
      const res = await tokenCall({ headers: { Authorization: basic(), "Content-Type": "application/json" }, body });
      expect(res.status).toBe(200);
      const json = (await res.json()) as Envelope<{ accessToken: string; tokenType: string; nonce: string }>;
      expect(json.code).toBe(200);
      expect(json.msg).toBe("success");
      expect(json.message).toBe("success");
      expect(json.data.tokenType).toBe("Bearer");
      expect(json.data.accessToken.length).toBeGreaterThan(40);
      expect(json.data.nonce).toMatch(/^[0-9a-f]{32}$/);
    }
  });
  it("answers 40010000 with HTTP 200 for a wrong secret, an unknown id or no credentials", async () => {
    const attempts: Record<string, string>[] = [
      { Authorization: basic("test-client", "wrong") },
      { Authorization: basic("nobody", "x") },
      {},
    ];
    for (const headers of attempts) {
      const res = await tokenCall({ headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        code: 40010000,
        data: {},
        msg: "client credentials are invalid",
        message: "client credentials are invalid",
      });
    }
  });
  it("answers 40010000, not a system error, for a client id with a NUL byte (PostgreSQL text cannot hold one)", async () => {
    const res = await tokenCall({ headers: { Authorization: basic("test-client\0", "test-secret-0123456789") } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Envelope).code).toBe(40010000);
  });
  it("does not care about the Host header", async () => {
    const res = await tokenCall({ headers: { Authorization: basic(), Host: "api.live-service.example" } });
    expect(((await res.json()) as Envelope).code).toBe(200);
  });
});

describe("Bearer and Token schemes", () => {
  it("401 with the exact body without a token, with a bad one, or with a tampered one", async () => {
    const token = await api.getToken();
    const tampered = token.slice(0, -2) + (token.endsWith("A") ? "BB" : "AA");
    for (const auth of [undefined, "Bearer nonsense", `Bearer ${tampered}`, `Basic ${token}`]) {
      const res = await fetch(`${server.url}/open-api/v1/balance`, { headers: auth ? { Authorization: auth } : {} });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 401, msg: "Unauthorized", data: {} });
    }
  });
  it("balance with Bearer; split query and segmentation take Token and Bearer; others only Bearer", async () => {
    expect(await api.balance()).toBe(1000);
    for (const route of ["split/query-task?task_id=x", "segmentation/query-task?task_id=x"]) {
      expect((await api.get(route, "Token")).code).toBe(10030010);
      expect((await api.get(route, "Bearer")).code).toBe(10030010);
    }
    expect((await api.get("query-task?task_id=x", "Token")).code).toBe(401);
  });
});

describe("methods a route does not take", () => {
  it("answer the envelope 10030014 with HTTP 405 and Allow, before any auth; OPTIONS lists only the real methods", async () => {
    const cases: [string, string, string][] = [
      ["balance", "POST", "GET, HEAD, OPTIONS"],
      ["query-task?task_id=x", "DELETE", "GET, HEAD, OPTIONS"],
      ["split/query-task", "PUT", "GET, HEAD, OPTIONS"],
      ["auth/token", "GET", "POST, OPTIONS"],
      ["submit-task", "PATCH", "POST, OPTIONS"],
      ["segmentation/create-task", "GET", "POST, OPTIONS"],
    ];
    for (const [route, method, allow] of cases) {
      const res = await fetch(`${server.url}/open-api/v1/${route}`, { method, headers: { Authorization: basic() } });
      expect(res.status, `${method} ${route}`).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
      const body = (await res.json()) as Envelope;
      expect(body).toEqual({ code: 10030014, data: {}, msg: expect.stringMatching(/^method not allowed/) as unknown as string });
      const options = await fetch(`${server.url}/open-api/v1/${route}`, { method: "OPTIONS" });
      expect(options.status).toBe(204);
      expect(options.headers.get("allow")).toBe(allow);
    }
  });
});

describe("X3D_ENGINE=off", () => {
  it("switches every service route off", async () => {
    const off = await startServer({ X3D_ENGINE: "off" });
    try {
      expect((await fetch(`${off.url}/open-api/v1/balance`)).status).toBe(404);
      expect((await fetch(`${off.url}/open-api/v1/auth/token`, { method: "POST", headers: { Authorization: basic() } })).status).toBe(404);
      expect((await fetch(`${off.url}/open-api/v1/submit-task`, { method: "POST" })).status).toBe(404);
      expect((await fetch(`${off.url}/open-api/v1/submit-task`, { method: "PUT" })).status).toBe(404);
    } finally {
      await off.dispose();
    }
  });
});

describe("credential rotation (a restart with a new client pair)", () => {
  let rotating: TestServer;
  afterAll(() => rotating?.dispose());
  const tokenFor = async (id: string, secret: string): Promise<Envelope<{ accessToken?: string }>> => {
    const res = await fetch(`${rotating.url}/open-api/v1/auth/token`, { method: "POST", headers: { Authorization: basic(id, secret) } });
    return (await res.json()) as Envelope<{ accessToken?: string }>;
  };
  const balanceWith = async (token: string): Promise<{ status: number; balance?: number }> => {
    const res = await fetch(`${rotating.url}/open-api/v1/balance`, { headers: { Authorization: `Bearer ${token}` } });
    return {
      status: res.status,
      balance: res.status === 200 ? ((await res.json()) as Envelope<{ totalBalance: number }>).data.totalBalance : undefined,
    };
  };

  it("a new secret for the same id voids the old secret and its tokens at once, and keeps the balance; a new id voids the old pair", async () => {
    rotating = await startServer({ X3D_CLIENT_ID: "rot-a", X3D_CLIENT_SECRET: "first-secret-0123456789", X3D_ENGINE_BALANCE: "777" });
    const first = (await tokenFor("rot-a", "first-secret-0123456789")).data.accessToken!;
    expect(await balanceWith(first)).toEqual({ status: 200, balance: 777 });

    await rotating.stop();
    rotating.env.X3D_CLIENT_SECRET = "second-secret-0123456789";
    rotating.env.X3D_ENGINE_BALANCE = "5"; // granted once: the account keeps its 777
    await rotating.restart();
    expect((await tokenFor("rot-a", "first-secret-0123456789")).code).toBe(40010000);
    expect((await balanceWith(first)).status).toBe(401);
    const second = (await tokenFor("rot-a", "second-secret-0123456789")).data.accessToken!;
    expect(await balanceWith(second)).toEqual({ status: 200, balance: 777 });

    await rotating.stop();
    rotating.env.X3D_CLIENT_ID = "rot-b";
    await rotating.restart();
    expect((await tokenFor("rot-a", "second-secret-0123456789")).code).toBe(40010000);
    expect((await balanceWith(second)).status).toBe(401);
    const third = (await tokenFor("rot-b", "second-secret-0123456789")).data.accessToken!;
    expect((await balanceWith(third)).status).toBe(200);
  }, 240_000);
});
