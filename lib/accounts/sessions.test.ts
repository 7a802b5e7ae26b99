// The account page's sessions against a real database (PGlite, or PostgreSQL in npm test's
// PostgreSQL run): the listing, "last seen", and revoking one session by its handle.
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

vi.mock("@/lib/accounts/current-user", () => ({ currentUser: async () => null }));

const { openTestDatabase } = await import("@/lib/db/test-database.test-helpers");
const database = await openTestDatabase("sessions");
const { db } = await import("@/lib/db");
const { sessions } = await import("@/lib/db/schema");
const { eq } = await import("drizzle-orm");
const { createUser } = await import("./users");
const { listSessions, revokeUserSession, sessionActive, sessionCache, sessionHandle, SESSION_MAX_AGE_S, startSession } =
  await import("./sessions");

afterAll(() => database.dispose());
afterEach(() => void vi.useRealTimers());

const PASSWORD = "kiln-umber-vellum-42";
const FIREFOX = "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1";

const user = async (email: string) => (await createUser(email, PASSWORD))!;
const row = async (id: string) => (await (await db()).select().from(sessions).where(eq(sessions.id, id)))[0]!;

describe("listing an account's sessions", () => {
  it("lists only the account's own live sessions, with the browser they came from, the last used first", async () => {
    const ann = await user("ann@example.com");
    const bob = await user("bob@example.com");
    const laptop = await startSession(ann.id, FIREFOX);
    await new Promise((r) => setTimeout(r, 5));
    const phone = await startSession(ann.id, SAFARI);
    const signedOut = await startSession(ann.id, FIREFOX);
    const expired = await startSession(ann.id, FIREFOX);
    await startSession(bob.id, FIREFOX);
    await revokeUserSession(ann.id, sessionHandle(signedOut));
    // Unused for longer than a cookie lives: its cookie has expired, whatever its row says.
    const longAgo = new Date(Date.now() - (SESSION_MAX_AGE_S + 60) * 1000);
    await (await db()).update(sessions).set({ createdAt: longAgo, lastSeenAt: longAgo }).where(eq(sessions.id, expired));

    const listed = await listSessions(ann.id);
    expect(listed.map((s) => s.handle)).toEqual([sessionHandle(phone), sessionHandle(laptop)]);
    expect(listed.map((s) => s.userAgent)).toEqual([SAFARI, FIREFOX]);
    expect(listed[1]!.signedInAt).toEqual((await row(laptop)).createdAt);
    expect(listed[1]!.lastSeenAt).toEqual((await row(laptop)).lastSeenAt);
    // The handle is a digest: the page never shows the id a cookie carries.
    expect(listed.every((s) => /^[0-9a-f]{32}$/.test(s.handle))).toBe(true);
    expect(listed.map((s) => s.handle)).not.toContain(laptop);
  });

  it("keeps a long User-Agent to 512 characters, and lists a session from before devices were kept as seen when it began", async () => {
    const cal = await user("cal@example.com");
    const long = await startSession(cal.id, `${FIREFOX} ${"x".repeat(1000)}`);
    expect((await row(long)).userAgent).toHaveLength(512);
    const old = await startSession(cal.id);
    await (await db()).update(sessions).set({ lastSeenAt: null }).where(eq(sessions.id, old));
    const listed = (await listSessions(cal.id)).find((s) => s.handle === sessionHandle(old))!;
    expect(listed.userAgent).toBeNull();
    expect(listed.lastSeenAt).toEqual((await row(old)).createdAt);
  });
});

describe("last seen", () => {
  it("is noted by a check of the session at most once a minute", async () => {
    const dee = await user("dee@example.com");
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T10:00:00Z") });
    const id = await startSession(dee.id, FIREFOX);
    expect((await row(id)).lastSeenAt).toEqual(new Date("2030-01-01T10:00:00Z"));

    vi.setSystemTime(new Date("2030-01-01T10:00:59Z"));
    expect(await sessionActive(id, dee.id)).toBe(true);
    expect((await row(id)).lastSeenAt).toEqual(new Date("2030-01-01T10:00:00Z"));

    vi.setSystemTime(new Date("2030-01-01T10:01:00Z"));
    expect(await sessionActive(id, dee.id)).toBe(true);
    expect((await row(id)).lastSeenAt).toEqual(new Date("2030-01-01T10:01:00Z"));

    vi.setSystemTime(new Date("2030-01-01T10:01:30Z"));
    expect(await sessionActive(id, dee.id)).toBe(true);
    expect((await row(id)).lastSeenAt).toEqual(new Date("2030-01-01T10:01:00Z"));
  });
});

describe("revoking one session", () => {
  it("ends only the session named, at once, and forgets every cached answer", async () => {
    const eve = await user("eve@example.com");
    const here = await startSession(eve.id, FIREFOX);
    const there = await startSession(eve.id, SAFARI);
    sessionCache().set("a cookie", { id: eve.id, email: eve.email }, sessionCache().ticket());

    expect(await revokeUserSession(eve.id, sessionHandle(there))).toBe(true);
    expect(await sessionActive(there, eve.id)).toBe(false);
    expect(await sessionActive(here, eve.id)).toBe(true);
    expect(sessionCache().get("a cookie")).toBeUndefined();
    // Already ended: nothing more to do.
    expect(await revokeUserSession(eve.id, sessionHandle(there))).toBe(false);
  });

  it("refuses another account's session: only its owner may end it", async () => {
    const fay = await user("fay@example.com");
    const gus = await user("gus@example.com");
    const his = await startSession(gus.id, FIREFOX);
    expect(await revokeUserSession(fay.id, sessionHandle(his))).toBe(false);
    expect(await sessionActive(his, gus.id)).toBe(true);
    expect((await row(his)).revokedAt).toBeNull();
    // Nor does the raw id work in place of a handle.
    expect(await revokeUserSession(gus.id, his)).toBe(false);
    expect(await sessionActive(his, gus.id)).toBe(true);
  });
});
