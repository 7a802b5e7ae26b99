// lib/accounts/authjs.ts's setup that needs no database, with NextAuth replaced by a stand-in
// that hands back the configuration (next-auth does not load outside Next.js), built inside each
// test: what the log says of a wrong password, what the session carries to the account page,
// which cookies key currentUser's cache, when GitHub is offered, and sign-out with a cookie
// Auth.js could not read. authjs.test.ts covers sign-in and the jwt callback on a real database.
import { beforeEach, describe, expect, it, vi } from "vitest";

type Config = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const state = vi.hoisted(() => ({
  factory: undefined as undefined | (() => Config),
  cookies: [] as { name: string; value: string }[],
  env: {} as Record<string, string | undefined>,
}));
vi.mock("next-auth", () => ({
  default: (factory: () => Config) => {
    state.factory = factory;
    return { handlers: {}, auth: async () => null, signIn: async () => {}, signOut: async () => {} };
  },
  CredentialsSignin: class CredentialsSignin extends Error {},
}));
vi.mock("next-auth/providers/credentials", () => ({ default: (options: Config) => ({ id: "credentials", ...options }) }));
vi.mock("next-auth/providers/github", () => ({ default: (options: Config) => ({ id: "github", ...options }) }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ getAll: () => state.cookies }),
}));
// A fixed secret (no file written into DATA_DIR) and GitHub's settings as each test sets them.
vi.mock("@/lib/env", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/env")>();
  return { ...real, serverEnv: () => ({ ...real.serverEnv(), AUTH_SECRET: "s".repeat(43), ...state.env }) };
});
vi.mock("./sessions", async (importOriginal) => ({ ...(await importOriginal<typeof import("./sessions")>()), revokeSession: vi.fn() }));

const { log } = await import("@/lib/log");
const { githubEnabled, sessionCookieKey } = await import("./authjs");
const { revokeSession, SESSION_MAX_AGE_S, sessionHandle } = await import("./sessions");

/** Auth.js's configuration as it is built for a request. */
const authConfig = () => state.factory!();

beforeEach(() => {
  state.cookies = [];
  state.env = {};
  vi.mocked(revokeSession).mockClear();
});

describe("Auth.js's log", () => {
  it("does not report a wrong password as an error, and reports every other error with its cause", () => {
    const error = vi.spyOn(log, "error").mockImplementation(() => {});
    const wrongPassword = Object.assign(new Error("Read more at https://errors.authjs.dev#credentialssignin"), {
      type: "CredentialsSignin",
    });
    authConfig().logger.error(wrongPassword);
    expect(error).not.toHaveBeenCalled();

    const broken = Object.assign(new Error("JWTSessionError"), { type: "JWTSessionError" });
    authConfig().logger.error(broken);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith({ err: broken }, expect.stringContaining("[auth]"));
    error.mockRestore();
  });

  it("reports Auth.js's warnings as warnings, naming the warning", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    authConfig().logger.warn("debug-enabled");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain("debug-enabled");
    warn.mockRestore();
  });
});

describe("the session the pages read", () => {
  it("carries the user's id and the handle of this browser's session, never the session's id", () => {
    const sid = "session-id-in-the-cookie";
    const session = authConfig().callbacks.session({
      session: { user: { email: "ann@example.com" }, expires: "" },
      token: { sub: "u1", sid },
    });
    expect(session.user.id).toBe("u1");
    expect(session.sessionHandle).toBe(sessionHandle(sid));
    expect(JSON.stringify(session)).not.toContain(sid);
  });

  it("carries no id or handle that the token does not hold", () => {
    const session = authConfig().callbacks.session({ session: { user: { email: "ann@example.com" }, expires: "" }, token: { sid: 42 } });
    expect(session.user).not.toHaveProperty("id");
    expect(session).not.toHaveProperty("sessionHandle");
  });
});

describe("sessionCookieKey", () => {
  it("is '' without a session cookie, whatever other cookies the browser sends", async () => {
    expect(await sessionCookieKey()).toBe("");
    state.cookies = [
      { name: "authjs.csrf-token", value: "c" },
      { name: "authjs.callback-url", value: "/tasks" },
      { name: "x.authjs.session-token", value: "forged" },
      { name: "authjs.session-token-old", value: "stale" },
      { name: "authjs.session-token.0.bak", value: "stale" },
    ];
    expect(await sessionCookieKey()).toBe("");
  });

  it("is the session cookie, its chunks in order and behind HTTPS its __Secure- name, and nothing else", async () => {
    state.cookies = [
      { name: "theme", value: "dark" },
      { name: "authjs.session-token", value: "jwe" },
    ];
    expect(await sessionCookieKey()).toBe("authjs.session-token=jwe");
    state.cookies = [
      { name: "__Secure-authjs.session-token.0", value: "part0" },
      { name: "authjs.csrf-token", value: "c" },
      { name: "__Secure-authjs.session-token.1", value: "part1" },
    ];
    expect(await sessionCookieKey()).toBe("__Secure-authjs.session-token.0=part0;__Secure-authjs.session-token.1=part1");
  });

  it("tells apart two sessions that differ in a late chunk (a cookie of more than ten chunks)", async () => {
    const chunks = (last: string) =>
      Array.from({ length: 12 }, (_, i) => ({ name: `authjs.session-token.${i}`, value: i === 11 ? last : "x" }));
    state.cookies = chunks("a");
    const first = await sessionCookieKey();
    state.cookies = chunks("b");
    expect(await sessionCookieKey()).not.toBe(first);
    expect(first).toContain("authjs.session-token.11=a");
  });
});

describe("the providers offered", () => {
  it("are the password form alone unless both GitHub settings are set", () => {
    expect(githubEnabled()).toBe(false);
    expect(authConfig().providers.map((p: Config) => p.id)).toEqual(["credentials"]);
    state.env = { AUTH_GITHUB_ID: "gh-id" };
    expect(githubEnabled()).toBe(false);
    state.env = { AUTH_GITHUB_SECRET: "gh-secret" };
    expect(githubEnabled()).toBe(false);
    expect(authConfig().providers.map((p: Config) => p.id)).toEqual(["credentials"]);
  });

  it("add GitHub, with the app's id and secret, when both are set", () => {
    state.env = { AUTH_GITHUB_ID: "gh-id", AUTH_GITHUB_SECRET: "gh-secret" };
    expect(githubEnabled()).toBe(true);
    const providers = authConfig().providers;
    expect(providers.map((p: Config) => p.id)).toEqual(["credentials", "github"]);
    expect(providers[1]).toMatchObject({ clientId: "gh-id", clientSecret: "gh-secret" });
  });
});

describe("Auth.js's settings", () => {
  it("keep sessions in a JWT cookie for SESSION_MAX_AGE_S, send sign-in to the studio's page, and trust the host it is served under", () => {
    const config = authConfig();
    expect(config.session).toEqual({ strategy: "jwt", maxAge: SESSION_MAX_AGE_S });
    expect(config.pages).toEqual({ signIn: "/sign-in" });
    expect(config.trustHost).toBe(true);
    expect(config.secret).toBe("s".repeat(43));
  });
});

describe("signing out", () => {
  it("revokes the session the token names", async () => {
    await authConfig().events.signOut({ token: { sub: "u1", sid: "sid-1" } });
    expect(revokeSession).toHaveBeenCalledWith("sid-1");
  });

  it("with a cookie Auth.js could not read, or a token from before sessions, revokes nothing and does not fail", async () => {
    await expect(authConfig().events.signOut({ token: null })).resolves.toBeUndefined();
    await expect(authConfig().events.signOut({ token: { sub: "u1" } })).resolves.toBeUndefined();
    expect(revokeSession).not.toHaveBeenCalled();
  });
});
