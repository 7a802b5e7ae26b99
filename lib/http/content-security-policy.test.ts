import { describe, expect, it } from "vitest";
import nextConfig from "../../next.config.js";
import { FILE_POLICY, newNonce, pagePolicy } from "./content-security-policy";

/** A policy as directive → sources. */
const directives = (policy: string) => new Map(policy.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));

describe("pagePolicy", () => {
  it("allows the nonce'd scripts, WebAssembly and blob: workers, and nothing from elsewhere", () => {
    const policy = directives(pagePolicy({ nonce: "abc123==" }));
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'", "'wasm-unsafe-eval'"]);
    expect(policy.get("worker-src")).toEqual(["'self'", "blob:"]);
    expect(policy.get("connect-src")).toEqual(["'self'", "blob:", "data:"]);
    expect(policy.get("img-src")).toEqual(["'self'", "blob:", "data:"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("style-src")).toEqual(["'self'", "'nonce-abc123=='"]);
    expect(policy.get("style-src-attr")).toEqual(["'unsafe-inline'"]);
    expect(policy.get("font-src")).toEqual(["'self'"]);
    expect(policy.get("media-src")).toEqual(["'self'", "blob:", "data:"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    for (const sources of policy.values()) expect(sources.some((s) => s.startsWith("http") || s === "*")).toBe(false);
  });

  it("adds eval only in development, and the form targets it is given", () => {
    expect(directives(pagePolicy({ nonce: "n" })).get("script-src")).not.toContain("'unsafe-eval'");
    expect(directives(pagePolicy({ nonce: "n", dev: true })).get("script-src")).toContain("'unsafe-eval'");
    expect(directives(pagePolicy({ nonce: "n", formTargets: ["https://github.com"] })).get("form-action")).toEqual([
      "'self'",
      "https://github.com",
    ]);
  });
});

describe("newNonce", () => {
  it("is 128 random bits in base64, fresh each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(atob(nonce)).toHaveLength(16);
  });
});

describe("next.config.js headers", () => {
  it("sends FILE_POLICY on the routes, and the share paths' no-referrer after the general policy", async () => {
    const rules = await nextConfig.headers!();
    const value = (source: string, key: string) => rules.find((r) => r.source === source)?.headers.find((h) => h.key === key)?.value;
    expect(value("/api/:path((?!auth/).*)", "Content-Security-Policy")).toBe(FILE_POLICY);
    expect(value("/open-api/:path*", "Content-Security-Policy")).toBe(FILE_POLICY);
    expect(value("/:path*", "X-Content-Type-Options")).toBe("nosniff");
    // For the same header the later rule wins: the share paths' must come after the general one.
    const order = (source: string) => rules.findIndex((r) => r.source === source);
    expect(order("/share/:path*")).toBeGreaterThan(order("/:path*"));
    expect(value("/share/:path*", "Referrer-Policy")).toBe("no-referrer");
  });
});
