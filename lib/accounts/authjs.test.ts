// lib/accounts/authjs.ts's refusals, with NextAuth replaced by a stand-in that hands back the
// configuration (next-auth does not load outside Next.js): authorize refuses malformed and wrong
// credentials and names a disabled account; the jwt callback refuses a disabled GitHub account and
// a token whose session is gone; every redirect stays on the site; a session is named by the
// browser signing in. Against a real database.
import { afterAll, describe, expect, it, vi } from "vitest";

type Config = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const captured = vi.hoisted(() => ({ factory: undefined as undefined | (() => Config), outsideRequest: false }));
vi.mock("next-auth", () => ({
  default: (factory: () => Config) => {
    captured.factory = factory;
    return { handlers: {}, auth: async () => null, signIn: async () => {}, signOut: async () => {} };
  },
  CredentialsSignin: class CredentialsSignin extends Error {},
}));
vi.mock("next-auth/providers/credentials", () => ({ default: (options: Config) => ({ id: "credentials", ...options }) }));
vi.mock("next-auth/providers/github", () => ({ default: (options: Config) => ({ id: "github", ...options }) }));
vi.mock("next/headers", () => ({
  headers: async () => {
    if (captured.outsideRequest) throw new Error("`headers` was called outside a request scope");
    return new Headers({ "user-agent": "Firefox/128.0" });
  },
  cookies: async () => ({ getAll: () => [] }),
}));

const { openTestDatabase } = await import("@/lib/db/test-database.test-helpers");
const database = await openTestDatabase("authjs");
await import("./authjs");
const { createUser, setDisabled, userForGithub } = await import("./users");
const { listSessions, revokeSession, sessionActive } = await import("./sessions");
afterAll(() => database.dispose());

/** Auth.js's configuration, built inside each test as Auth.js builds it for each request. */
const authConfig = () => captured.factory!();
const authorize = (raw: unknown, address = "203.0.113.9") =>
  authConfig().providers[0].authorize(raw, { headers: new Headers({ "x-x3d-client-address": address }) });
const PASSWORD = "kiln-umber-vellum-42";

describe("authorize refuses", () => {
  it("a malformed e-mail or an empty password without looking, a wrong password, and names a disabled account", async () => {
    const hal = (await createUser("hal@example.com", PASSWORD))!;
    expect(await authorize({ email: "not an e-mail", password: PASSWORD })).toBeNull();
    expect(await authorize({ email: "hal@example.com", password: "" })).toBeNull();
    expect(await authorize({ email: "hal@example.com" })).toBeNull();
    expect(await authorize({ email: "hal@example.com", password: "wrong guess" })).toBeNull();
    expect(await authorize({ email: "hal@example.com", password: PASSWORD })).toEqual({ id: hal.id, email: "hal@example.com", name: null });
    await setDisabled(hal.id, true);
    await expect(authorize({ email: "hal@example.com", password: PASSWORD })).rejects.toMatchObject({ code: "disabled" });
  });
});

describe("the jwt callback", () => {
  it("starts a session at sign-in, keeps the token while it is live, refuses it once it ends or without one", async () => {
    const ivy = (await createUser("ivy@example.com", PASSWORD))!;
    const token = await authConfig().callbacks.jwt({ token: {}, user: { id: ivy.id } });
    expect(token.sub).toBe(ivy.id);
    expect(await sessionActive(token.sid, ivy.id)).toBe(true);
    expect(await authConfig().callbacks.jwt({ token })).toBe(token);
    expect(await authConfig().callbacks.jwt({ token: { sub: ivy.id } })).toBeNull();
    await revokeSession(token.sid);
    expect(await authConfig().callbacks.jwt({ token })).toBeNull();
  });

  it("names the session's device by the User-Agent signing in, and starts one without it outside a request", async () => {
    const lee = (await createUser("lee@example.com", PASSWORD))!;
    await authConfig().callbacks.jwt({ token: {}, user: { id: lee.id } });
    expect((await listSessions(lee.id)).map((s) => s.userAgent)).toEqual(["Firefox/128.0"]);
    captured.outsideRequest = true;
    try {
      const token = await authConfig().callbacks.jwt({ token: {}, user: { id: lee.id } });
      expect(await sessionActive(token.sid, lee.id)).toBe(true);
    } finally {
      captured.outsideRequest = false;
    }
    expect((await listSessions(lee.id)).map((s) => s.userAgent).sort()).toEqual(["Firefox/128.0", null]);
  });

  it("refuses a disabled GitHub account at sign-in, and signs in an enabled one", async () => {
    const profile = { id: 777, email: "jo@example.com", name: "Jo" };
    const jo = await userForGithub("777", "jo@example.com", "Jo");
    await setDisabled(jo.id, true);
    expect(await authConfig().callbacks.jwt({ token: {}, account: { provider: "github" }, profile })).toBeNull();
    await setDisabled(jo.id, false);
    const token = await authConfig().callbacks.jwt({ token: {}, account: { provider: "github" }, profile });
    expect([token.sub, token.email]).toEqual([jo.id, "jo@example.com"]);
    expect(await sessionActive(token.sid, jo.id)).toBe(true);
  });
});

describe("redirects and sign-out", () => {
  it("keeps every redirect on the site", () => {
    expect(authConfig().callbacks.redirect({ url: "https://evil.example/x", baseUrl: "https://studio.example" })).toBe(
      "https://studio.example/",
    );
    expect(authConfig().callbacks.redirect({ url: "/tasks", baseUrl: "https://studio.example" })).toBe("https://studio.example/tasks");
  });

  it("signing out ends the session its token names", async () => {
    const kim = (await createUser("kim@example.com", PASSWORD))!;
    const token = await authConfig().callbacks.jwt({ token: {}, user: { id: kim.id } });
    await authConfig().events.signOut({ token });
    expect(await sessionActive(token.sid, kim.id)).toBe(false);
  });
});
