// lib/accounts/current-user.ts: who a request is signed in as, with Auth.js's auth() and the
// request's cookies replaced by stand-ins (next-auth does not load outside Next.js) and the
// admin check by a list. A request without a session cookie is nobody without asking Auth.js;
// a cookie's answer is remembered, so a task page's polls do not each decrypt it; after a
// revocation the session is asked again and refused; only an admin gets the admin pages.
import { beforeEach, describe, expect, it, vi } from "vitest";

const state = vi.hoisted(() => ({
  cookie: "",
  session: null as null | { user?: { id?: string; email?: string | null }; sessionHandle?: string },
  admins: [] as string[],
}));
vi.mock("./authjs", () => ({
  sessionCookieKey: async () => state.cookie,
  auth: vi.fn(async () => state.session),
}));
vi.mock("./roles", () => ({ isAdmin: vi.fn(async (user: { id: string }) => state.admins.includes(user.id)) }));

const { auth } = await import("./authjs");
const { isAdmin } = await import("./roles");
const { sessionCache } = await import("./sessions");
const { currentAdmin, currentSessionHandle, currentUser } = await import("./current-user");

const ANN = { id: "u-ann", email: "ann@example.com" };

beforeEach(() => {
  sessionCache().forgetAll();
  state.cookie = "";
  state.session = null;
  state.admins = [];
  vi.mocked(auth).mockClear();
  vi.mocked(isAdmin).mockClear();
});

describe("currentUser", () => {
  it("is nobody without a session cookie, without asking Auth.js", async () => {
    state.session = { user: ANN }; // whatever auth() would say
    expect(await currentUser()).toBeNull();
    expect(auth).not.toHaveBeenCalled();
  });

  it("is the cookie's user, by id and e-mail, and remembers it for the next poll with that cookie", async () => {
    state.cookie = "authjs.session-token=ann";
    state.session = { user: { ...ANN, name: "Ann" } as typeof ANN };
    expect(await currentUser()).toEqual(ANN);
    expect(await currentUser()).toEqual(ANN);
    expect(auth).toHaveBeenCalledTimes(1);
    state.cookie = "authjs.session-token=bob";
    state.session = { user: { id: "u-bob", email: "bob@example.com" } };
    expect(await currentUser()).toEqual({ id: "u-bob", email: "bob@example.com" });
    expect(auth).toHaveBeenCalledTimes(2);
  });

  it("is nobody when Auth.js refuses the cookie or its session names no user", async () => {
    state.cookie = "authjs.session-token=revoked";
    expect(await currentUser()).toBeNull();
    state.cookie = "authjs.session-token=no-user";
    state.session = { sessionHandle: "h" };
    expect(await currentUser()).toBeNull();
    state.cookie = "authjs.session-token=no-id";
    state.session = { user: { email: "ann@example.com" } };
    expect(await currentUser()).toBeNull();
  });

  it("asks again after a revocation, and then refuses the revoked session", async () => {
    state.cookie = "authjs.session-token=ann";
    state.session = { user: ANN };
    expect(await currentUser()).toEqual(ANN);
    state.session = null; // signed out everywhere: auth() refuses the cookie now
    sessionCache().forgetAll();
    expect(await currentUser()).toBeNull();
    expect(auth).toHaveBeenCalledTimes(2);
  });

  it("is a user with an empty e-mail when the account has none (a GitHub account without a public address)", async () => {
    state.cookie = "authjs.session-token=gh";
    state.session = { user: { id: "u-gh", email: null } };
    expect(await currentUser()).toEqual({ id: "u-gh", email: "" });
  });
});

describe("currentAdmin", () => {
  it("is nobody signed out, without an admin check", async () => {
    expect(await currentAdmin()).toBeNull();
    expect(isAdmin).not.toHaveBeenCalled();
  });

  it("is nobody for an artist, and the user for an admin", async () => {
    state.cookie = "authjs.session-token=ann";
    state.session = { user: ANN };
    expect(await currentAdmin()).toBeNull();
    state.admins = [ANN.id];
    expect(await currentAdmin()).toEqual(ANN);
  });
});

describe("currentSessionHandle", () => {
  it("is this browser's session handle, or null signed out", async () => {
    expect(await currentSessionHandle()).toBeNull();
    state.session = { user: ANN, sessionHandle: "0123abcd" };
    expect(await currentSessionHandle()).toBe("0123abcd");
    state.session = { user: ANN };
    expect(await currentSessionHandle()).toBeNull();
  });
});
