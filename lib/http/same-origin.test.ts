import { afterEach, describe, expect, it, vi } from "vitest";
import { isSameOrigin } from "./same-origin";

const headers = (h: Record<string, string>) => new Headers(h);

describe("isSameOrigin without APP_URL: the request's Host", () => {
  it("takes the studio's own origin, on any scheme", () => {
    expect(isSameOrigin(headers({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }), undefined)).toBe(true);
    expect(isSameOrigin(headers({ host: "studio.example", origin: "https://studio.example" }), undefined)).toBe(true);
    expect(isSameOrigin(headers({ host: "Studio.Example", origin: "https://studio.example" }), undefined)).toBe(true);
  });

  it("refuses another port, a sibling subdomain, a lookalike, a missing, null or broken Origin, and no Host", () => {
    const host = "studio.example:3000";
    for (const origin of [
      "http://studio.example:4000",
      "http://evil.studio.example:3000",
      "http://studio.example:3000.evil.test",
      "null",
      "not a url",
    ]) {
      expect(isSameOrigin(headers({ host, origin }), undefined), origin).toBe(false);
    }
    expect(isSameOrigin(headers({ host }), undefined)).toBe(false);
    expect(isSameOrigin(headers({ origin: "http://studio.example:3000" }), undefined)).toBe(false);
  });
});

describe("isSameOrigin with APP_URL", () => {
  const appUrl = "https://studio.example/";

  it("takes APP_URL's origin whatever Host a proxy passed on", () => {
    expect(isSameOrigin(headers({ host: "10.0.0.5:3000", origin: "https://studio.example" }), appUrl)).toBe(true);
  });

  it("refuses any other origin, even the Host's or APP_URL's host on another scheme", () => {
    expect(isSameOrigin(headers({ host: "10.0.0.5:3000", origin: "http://10.0.0.5:3000" }), appUrl)).toBe(false);
    expect(isSameOrigin(headers({ host: "studio.example", origin: "http://studio.example" }), appUrl)).toBe(false);
    expect(isSameOrigin(headers({ host: "studio.example" }), appUrl)).toBe(false);
  });
});

describe("refuseCrossSite", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("answers 403 with a JSON error for a foreign Origin, nothing for the studio's own", async () => {
    vi.stubEnv("APP_URL", "");
    const { refuseCrossSite } = await import("./same-origin");
    const post = (origin?: string) =>
      new Request("http://studio.example/api/uploads", {
        method: "POST",
        headers: { host: "studio.example", ...(origin ? { origin } : {}) },
      });
    const refused = refuseCrossSite(post("http://evil.example"));
    expect(refused?.status).toBe(403);
    expect(await refused?.json()).toEqual({ error: expect.stringMatching(/another site/) });
    expect(refuseCrossSite(post())?.status).toBe(403);
    expect(refuseCrossSite(post("http://studio.example"))).toBeNull();
  });

  it("uses APP_URL when it is set", async () => {
    vi.stubEnv("APP_URL", "https://public.example");
    const { refuseCrossSite } = await import("./same-origin");
    const post = (origin: string) =>
      new Request("http://internal:3000/api/uploads", { method: "POST", headers: { host: "internal:3000", origin } });
    expect(refuseCrossSite(post("https://public.example"))).toBeNull();
    expect(refuseCrossSite(post("http://internal:3000"))?.status).toBe(403);
  });
});
