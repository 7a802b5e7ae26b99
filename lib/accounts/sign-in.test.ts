// The sign-in and sign-up guards, one test per kind of attempt they refuse, against a real
// database (PGlite, or PostgreSQL in npm test's PostgreSQL run): wrong passwords and unknown
// e-mails alike, the per-address-and-e-mail and per-address throttles, accounts without a
// password, stored hashes that are not ours, and sign-ups past the free ones of a network.
import { afterAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.SIGN_UPS_PER_ADDRESS = "5";
});
vi.mock("@/lib/accounts/current-user", () => ({ currentUser: async () => null }));

const { openTestDatabase } = await import("@/lib/db/test-database.test-helpers");
const database = await openTestDatabase("sign-in");
const { checkCredentials, createUser, recordSignUp, signInWait, signUpWait, userForGithub } = await import("./users");
const { hashPassword, verifyPassword } = await import("./password-hash");
const { revokeUserSession, sessionActive, sessionHandle, startSession, tokenSessionActive } = await import("./sessions");

afterAll(() => database.dispose());

const PASSWORD = "kiln-umber-vellum-42";
/** Seconds a refused attempt must wait; -1 for one let in. */
const waitOf = (result: Awaited<ReturnType<typeof checkCredentials>>) => (result.ok ? -1 : result.waitSeconds);
/** Each test its own addresses (the throttle counts by address): 198.51.100.<n>. */
let n = 0;
const address = () => `198.51.100.${++n}`;

describe("checkCredentials refuses", () => {
  it("a wrong password and an unknown e-mail alike, saying nothing else", async () => {
    await createUser("ann@example.com", PASSWORD);
    const from = address();
    expect(await checkCredentials("ann@example.com", "not her password", from)).toEqual({ ok: false, waitSeconds: 0 });
    expect(await checkCredentials("nobody@example.com", PASSWORD, from)).toEqual({ ok: false, waitSeconds: 0 });
    expect(await checkCredentials("ann@example.com", "", from)).toEqual({ ok: false, waitSeconds: 0 });
    const ok = await checkCredentials("  Ann@Example.COM ", PASSWORD, from);
    expect(ok.ok && ok.user.email).toBe("ann@example.com");
  });

  it("a fourth attempt from one address at one e-mail after three failures, even with the right password; not the owner elsewhere", async () => {
    await createUser("bo@example.com", PASSWORD);
    const from = address();
    const waits = [];
    for (let i = 0; i < 3; i++) waits.push(waitOf(await checkCredentials("bo@example.com", `guess ${i}`, from)));
    expect(waits.slice(0, 2)).toEqual([0, 0]);
    expect(waits[2]).toBeGreaterThan(0);
    expect(waits[2]).toBeLessThanOrEqual(2);
    const refused = await checkCredentials("bo@example.com", PASSWORD, from);
    expect(refused.ok).toBe(false);
    expect(waitOf(refused)).toBeGreaterThan(0);
    // The same e-mail's case does not make it another key.
    expect((await checkCredentials("BO@example.com", PASSWORD, from)).ok).toBe(false);
    expect((await checkCredentials("bo@example.com", PASSWORD, address())).ok).toBe(true);
  });

  it("unknown e-mails count as failures too: three, and the fourth waits", async () => {
    const from = address();
    for (let i = 0; i < 3; i++) await checkCredentials("ghost@example.com", PASSWORD, from);
    expect(await signInWait("ghost@example.com", from)).toBeGreaterThan(0);
    expect(await signInWait("ghost@example.com", address())).toBe(0);
  });

  it("an address past twenty failures over many e-mails, whatever e-mail it tries next; a success does not reset that count", async () => {
    await createUser("cy@example.com", PASSWORD);
    const from = address();
    for (let i = 0; i < 19; i++) expect(waitOf(await checkCredentials(`spray${i}@example.com`, PASSWORD, from))).toBe(0);
    // Signing in to an own account in between clears only that address-and-e-mail count.
    expect((await checkCredentials("cy@example.com", PASSWORD, from)).ok).toBe(true);
    expect(waitOf(await checkCredentials("spray19@example.com", PASSWORD, from))).toBeGreaterThan(0);
    expect(await signInWait("someone-else@example.com", from)).toBeGreaterThan(0);
  });

  it("a success clears that e-mail's count at that address: three more failures before a wait", async () => {
    await createUser("di@example.com", PASSWORD);
    const from = address();
    for (let i = 0; i < 2; i++) await checkCredentials("di@example.com", "wrong", from);
    expect((await checkCredentials("di@example.com", PASSWORD, from)).ok).toBe(true);
    for (let i = 0; i < 2; i++) expect(waitOf(await checkCredentials("di@example.com", "wrong", from))).toBe(0);
  });

  it("any password for an account that signs in with GitHub", async () => {
    await userForGithub("gh-4242", "octo@example.com", "Octo");
    for (const password of [PASSWORD, "", "null"]) expect((await checkCredentials("octo@example.com", password, address())).ok).toBe(false);
  });
});

describe("verifyPassword refuses", () => {
  it("a stored value of another scheme, or without its salt or hash, whatever the password", async () => {
    const stored = await hashPassword(PASSWORD);
    const [, nn, r, p, salt, hash] = stored.split("$");
    for (const bad of [
      ["bcrypt", nn, r, p, salt, hash].join("$"),
      ["scrypt", nn, r, p, "", hash].join("$"),
      ["scrypt", nn, r, p, salt, ""].join("$"),
      ["scrypt", nn, r, p, salt].join("$"),
      "",
    ])
      expect(await verifyPassword(PASSWORD, bad), bad).toBe(false);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
  });
});

describe("sign-ups", () => {
  it("wait after SIGN_UPS_PER_ADDRESS from one network (an IPv6 /64 counts as one), not from another", async () => {
    const from = "2001:db8:7:1::10";
    for (let i = 0; i < 4; i++) {
      await recordSignUp(from);
      expect(await signUpWait(from)).toBe(0);
    }
    await recordSignUp("2001:db8:7:1::99");
    expect(await signUpWait(from)).toBeGreaterThan(0);
    expect(await signUpWait("2001:db8:7:1:ffff::1")).toBeGreaterThan(0);
    expect(await signUpWait("2001:db8:7:2::10")).toBe(0);
    expect(await signUpWait(address())).toBe(0);
  });
});

describe("sessionActive refuses", () => {
  it("an unknown or empty session id, another account's session, and a revoked one", async () => {
    const eli = (await createUser("eli@example.com", PASSWORD))!;
    const fay = (await createUser("fay@example.com", PASSWORD))!;
    const his = await startSession(eli.id, "Firefox");
    expect(await sessionActive(his, eli.id)).toBe(true);
    // A cookie naming Eli's session but Fay's account (or the reverse) is no session of either.
    expect(await sessionActive(his, fay.id)).toBe(false);
    expect(await sessionActive(`${his}x`, eli.id)).toBe(false);
    expect(await sessionActive("", eli.id)).toBe(false);
    expect(await sessionActive(his, "")).toBe(false);
    expect(await revokeUserSession(eli.id, sessionHandle(his))).toBe(true);
    expect(await sessionActive(his, eli.id)).toBe(false);
  });
});

describe("tokenSessionActive refuses", () => {
  it("a token without a session id (a cookie from before sessions), with one not a string, without a user, or of an ended session", async () => {
    const gil = (await createUser("gil@example.com", PASSWORD))!;
    const sid = await startSession(gil.id);
    expect(await tokenSessionActive({ sid, sub: gil.id })).toBe(true);
    expect(await tokenSessionActive({ sub: gil.id })).toBe(false);
    expect(await tokenSessionActive({ sid: 42, sub: gil.id })).toBe(false);
    expect(await tokenSessionActive({ sid: [sid], sub: gil.id })).toBe(false);
    expect(await tokenSessionActive({ sid })).toBe(false);
    expect(await tokenSessionActive({ sid, sub: null })).toBe(false);
    expect(await revokeUserSession(gil.id, sessionHandle(sid))).toBe(true);
    expect(await tokenSessionActive({ sid, sub: gil.id })).toBe(false);
  });
});
