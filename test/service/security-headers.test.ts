// The studio's security headers and Origin checks over real HTTP, through Next's server, its
// proxy (proxy.ts) and next.config.js's headers; the browser's view is e2e/security.spec.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { startServer, type TestServer } from "../harness/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

const nonceOf = (policy: string | null) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy ?? "")?.[1];

describe("pages", () => {
  it("each answer has its own nonce, on every script of the page", async () => {
    const [first, second] = [await fetch(`${server.url}/sign-in`), await fetch(`${server.url}/sign-in`)];
    const nonce = nonceOf(first.headers.get("content-security-policy"));
    expect(nonce).toBeTruthy();
    expect(nonceOf(second.headers.get("content-security-policy"))).not.toBe(nonce);
    const scripts = (await first.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("a share page sends no Referer, even for an unknown token", async () => {
    const res = await fetch(`${server.url}/share/no-such-token`);
    expect(res.status).toBe(404);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
  });
});

describe("routes", () => {
  it("JSON routes and signed file links are nosniff and sandboxed, the proxy's 404 included", async () => {
    const api = new Api(server.url);
    const id = (
      await api.post("submit-task", {
        images: [fixture("chair.png"), "chair.png"],
        model: "x3dv1.5",
        resolution: "512",
        request_type: "1",
        format: "2",
        face: "100000",
      })
    ).data.task_id as string;
    const done = await api.waitFor("query-task", id);
    for (const url of [
      done.data.url!,
      done.data.cover_url!,
      `${server.url}/open-api/v1/files/%C0%AE/result.glb`,
      `${server.url}/api/tasks/x`,
      `${server.url}/open-api/v1/balance`,
    ]) {
      const res = await fetch(url);
      expect(res.headers.get("x-content-type-options"), url).toBe("nosniff");
      expect(res.headers.get("content-security-policy"), url).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
    }
  });
});

describe("Origin checks", () => {
  const post = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: "POST", headers, body: new FormData() });

  it("/api/uploads refuses a foreign or missing Origin before anything else, and lets the studio's own through", async () => {
    for (const headers of [{ Origin: "http://evil.example" }, {}, { Origin: "null" }] as Record<string, string>[]) {
      const res = await post("/api/uploads", headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/another site/) });
    }
    // The studio's own origin passes the check and meets the next one: no session.
    expect((await post("/api/uploads", { Origin: new URL(server.url).origin })).status).toBe(401);
  });

  it("Auth.js's POSTs are checked too; the service's callback, called by a machine, is not", async () => {
    expect((await post("/api/auth/signout", { Origin: "http://evil.example" })).status).toBe(403);
    expect((await post("/api/callbacks/no-such-task/no-secret")).status).toBe(404);
  });
});
