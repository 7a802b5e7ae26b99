// Sign-in slow-down as a client sees it, through Auth.js's own endpoint (which a script can
// call directly, past the sign-in page): per client address and per (address, e-mail), the
// address from the socket unless TRUST_PROXY says how many proxies add X-Forwarded-For.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withDatabase } from "../harness/db";
import { startServer, type TestServer } from "../harness/server";

const EMAIL = "painter@example.com";
const PASSWORD = "kiln-umber-vellum-42";

/** The stored form lib/accounts/password-hash.ts writes (scrypt$N$r$p$salt$hash). */
function scryptHash(password: string): string {
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return ["scrypt", 16384, 8, 1, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

/** A server with one account planted in its database (PGlite: while stopped). */
async function serverWithAccount(env: Record<string, string>): Promise<TestServer> {
  const server = await startServer(env);
  await server.stop();
  await withDatabase(server, (q) =>
    q("insert into users (id, email, password_hash) values ($1, $2, $3)", [crypto.randomUUID(), EMAIL, scryptHash(PASSWORD)]),
  );
  await server.restart();
  return server;
}

/** Signs in through /api/auth/callback/credentials; true when a session cookie came back. */
async function signIn(
  server: TestServer,
  email: string,
  password: string,
  forwardedFor?: string,
  extra: Record<string, string> = {},
): Promise<boolean> {
  const forwarded: Record<string, string> = { ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}), ...extra };
  const csrf = await fetch(`${server.url}/api/auth/csrf`, { headers: forwarded });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const res = await fetch(`${server.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    // As the sign-in form posts it: Auth.js's POSTs refuse another or no Origin (403).
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: new URL(server.url).origin, ...forwarded },
    body: new URLSearchParams({ email, password, csrfToken }),
  });
  await res.arrayBuffer();
  if (res.status === 403) throw new Error("the sign-in POST was refused as cross-site");
  return res.headers.getSetCookie().some((c) => /^(__Secure-)?authjs\.session-token=[^;]+/.test(c));
}

async function fail(server: TestServer, times: number, emailOf: (i: number) => string, forwardedFor?: (i: number) => string) {
  for (let i = 0; i < times; i++) expect(await signIn(server, emailOf(i), `wrong guess ${i}`, forwardedFor?.(i))).toBe(false);
}

describe("behind one proxy (TRUST_PROXY=1)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWithAccount({ TRUST_PROXY: "1" });
  });
  afterAll(() => server?.dispose());

  it("the right password works (the planted account, the endpoint as called)", async () => {
    expect(await signIn(server, EMAIL, PASSWORD, "192.0.2.1")).toBe(true);
  });

  it("a stranger's failures slow down the stranger's address only: the user signs in from another", async () => {
    await fail(
      server,
      5,
      () => EMAIL,
      () => "203.0.113.7",
    );
    expect(await signIn(server, EMAIL, PASSWORD, "203.0.113.7")).toBe(false);
    // The proxy's last hop is the address: what the client put before it changes nothing.
    expect(await signIn(server, EMAIL, PASSWORD, "198.51.100.99, 203.0.113.7")).toBe(false);
    expect(await signIn(server, EMAIL, PASSWORD, "198.51.100.4")).toBe(true);
  });

  it("one password sprayed over many e-mails from one address is slowed down for that address", async () => {
    await fail(
      server,
      25,
      (i) => `someone-${i}@example.com`,
      () => "203.0.113.50",
    );
    expect(await signIn(server, EMAIL, PASSWORD, "203.0.113.50")).toBe(false);
    expect(await signIn(server, EMAIL, PASSWORD, "198.51.100.5")).toBe(true);
  });
});

describe("without TRUST_PROXY", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWithAccount({});
  });
  afterAll(() => server?.dispose());

  it("a client's own X-Forwarded-For, or its own copy of the address stamp, is ignored: new values do not escape the slow-down", async () => {
    await fail(
      server,
      5,
      () => EMAIL,
      (i) => `10.9.8.${i}`,
    );
    expect(await signIn(server, EMAIL, PASSWORD, "10.9.8.200")).toBe(false);
    expect(await signIn(server, EMAIL, PASSWORD, undefined, { "x-x3d-client-address": "10.9.8.201" })).toBe(false);
    expect(await signIn(server, EMAIL, PASSWORD)).toBe(false);
  });
});
