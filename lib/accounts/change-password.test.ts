// Changing a password from the account page, against a real database (PGlite, or PostgreSQL in
// npm test's PostgreSQL run).
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

vi.mock("@/lib/accounts/current-user", () => ({ currentUser: async () => null }));

const { openTestDatabase } = await import("@/lib/db/test-database.test-helpers");
const database = await openTestDatabase("change-password");
const { changePassword } = await import("./change-password");
const { checkCredentials, createUser, findUserById, signInWait, userForGithub } = await import("./users");
const { listSessions, sessionActive, sessionHandle, startSession } = await import("./sessions");

afterAll(() => database.dispose());
afterEach(() => void vi.useRealTimers());

const OLD = "kiln-umber-vellum-42";
const NEW = "quarry lantern oboe mosaic";

const account = async (email: string) => (await createUser(email, OLD))!;
const passwordHashOf = async (id: string) => (await findUserById(id))!.passwordHash;

describe("changing the password", () => {
  it("refuses for an account that no longer exists (deleted while its page was open)", async () => {
    const fields = { currentPassword: OLD, newPassword: NEW, confirmPassword: NEW };
    expect(await changePassword({ userId: "deleted-account", keepHandle: null, address: "192.0.2.10", fields })).toEqual({
      status: "error",
      fields: {},
      message: "This account no longer exists.",
    });
  });

  it("refuses a wrong current password on its field, changes nothing, and counts it with the sign-in throttle", async () => {
    const ann = await account("ann@example.com");
    const here = await startSession(ann.id);
    const there = await startSession(ann.id);
    const hash = await passwordHashOf(ann.id);
    const attempt = (current: string, address = "192.0.2.10") =>
      changePassword({
        userId: ann.id,
        keepHandle: sessionHandle(here),
        address,
        fields: { currentPassword: current, newPassword: NEW, confirmPassword: NEW },
      });

    expect(await attempt("not my password")).toEqual({
      status: "error",
      fields: { currentPassword: "This is not your current password." },
    });
    expect(await passwordHashOf(ann.id)).toBe(hash);
    expect(await sessionActive(there, ann.id)).toBe(true);
    expect(await signInWait(ann.email, "192.0.2.10")).toBe(0);

    await attempt("not my password either");
    // The third failure from this address: past the throttle's free tries.
    const third = await attempt("still not it");
    expect(third).toMatchObject({
      status: "error",
      fields: { currentPassword: expect.stringMatching(/^Too many failed attempts\. Try again in \d+ seconds\.$/) },
    });
    // The wait is 2 seconds: the clock stops here, so a busy machine cannot outlast it.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect(await signInWait(ann.email, "192.0.2.10")).toBeGreaterThan(0);
    // The same count as signing in: the sign-in form from this address waits too...
    expect(await checkCredentials(ann.email, OLD, "192.0.2.10")).toMatchObject({ ok: false, waitSeconds: expect.any(Number) });
    // ...and while it waits, even the right password changes nothing.
    expect(await attempt(OLD)).toMatchObject({
      status: "error",
      fields: { currentPassword: expect.stringMatching(/^Too many failed attempts/) },
    });
    expect(await passwordHashOf(ann.id)).toBe(hash);
    // The owner elsewhere is not locked out.
    expect(await attempt(OLD, "198.51.100.4")).toEqual({ status: "saved" });
    vi.useRealTimers();
  });

  it("refuses a weak new password naming the rule, and a confirmation that differs", async () => {
    const bob = await account("bob@example.com");
    const hash = await passwordHashOf(bob.id);
    const attempt = (newPassword: string, confirmPassword = newPassword) =>
      changePassword({
        userId: bob.id,
        keepHandle: null,
        address: "192.0.2.20",
        fields: { currentPassword: OLD, newPassword, confirmPassword },
      });

    expect(await attempt("short")).toEqual({ status: "error", fields: { newPassword: "Use at least 10 characters." } });
    const guessable = await attempt("password123456");
    expect(guessable).toMatchObject({
      status: "error",
      fields: { newPassword: expect.stringMatching(/^This password is too easy to guess\./) },
    });
    // Built on the account's own e-mail.
    expect(await attempt("bob@example.com1")).toMatchObject({ fields: { newPassword: expect.stringMatching(/too easy to guess/) } });
    expect(await attempt(OLD)).toEqual({ status: "error", fields: { newPassword: "Choose a password different from the current one." } });
    expect(await attempt(NEW, `${NEW}!`)).toEqual({
      status: "error",
      fields: { confirmPassword: "This does not match the new password." },
    });
    expect(await passwordHashOf(bob.id)).toBe(hash);
  });

  it("says every problem at once, by field", async () => {
    const cal = await account("cal@example.com");
    const result = await changePassword({
      userId: cal.id,
      keepHandle: null,
      address: "192.0.2.30",
      fields: { currentPassword: "", newPassword: "short", confirmPassword: null },
    });
    expect(result).toEqual({
      status: "error",
      fields: { currentPassword: "Enter your current password.", newPassword: "Use at least 10 characters." },
    });
  });

  it("on success, keeps this browser signed in, ends every other session, and only the new password signs in", async () => {
    const dee = await account("dee@example.com");
    const here = await startSession(dee.id);
    const laptop = await startSession(dee.id);
    const phone = await startSession(dee.id);
    const other = await account("eve@example.com");
    const hers = await startSession(other.id);

    const result = await changePassword({
      userId: dee.id,
      keepHandle: sessionHandle(here),
      address: "192.0.2.40",
      fields: { currentPassword: OLD, newPassword: NEW, confirmPassword: NEW },
    });
    expect(result).toEqual({ status: "saved" });
    expect(await sessionActive(here, dee.id)).toBe(true);
    expect(await sessionActive(laptop, dee.id)).toBe(false);
    expect(await sessionActive(phone, dee.id)).toBe(false);
    expect((await listSessions(dee.id)).map((s) => s.handle)).toEqual([sessionHandle(here)]);
    expect(await sessionActive(hers, other.id)).toBe(true);

    expect(await checkCredentials(dee.email, OLD, "192.0.2.41")).toMatchObject({ ok: false });
    expect(await checkCredentials(dee.email, NEW, "192.0.2.41")).toMatchObject({ ok: true });
  });

  it("tells a GitHub account it has no password to change", async () => {
    const gh = await userForGithub("4242", "gh@example.com", "GH");
    expect(
      await changePassword({
        userId: gh.id,
        keepHandle: null,
        address: "192.0.2.50",
        fields: { currentPassword: "x", newPassword: NEW, confirmPassword: NEW },
      }),
    ).toEqual({ status: "error", fields: {}, message: "This account signs in with GitHub and has no password to change here." });
  });
});
