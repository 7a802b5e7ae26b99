// Roles and disabled accounts against a real database (PGlite, or PostgreSQL in npm test's
// PostgreSQL run). ADMIN_EMAILS is unset here: the install's first account is the admin.
import { afterAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  delete process.env.ADMIN_EMAILS;
});
vi.mock("@/lib/accounts/current-user", () => ({ currentUser: async () => null }));

const { openTestDatabase } = await import("@/lib/db/test-database.test-helpers");
const database = await openTestDatabase("accounts");
const { createUser, checkCredentials, setDisabled, userForGithub } = await import("./users");
const { sessionActive, startSession } = await import("./sessions");
const { isAdmin, roleOf, userIsAdmin } = await import("./roles");
const { creditsOf } = await import("@/lib/credits/ledger");

afterAll(() => database.dispose());

const PASSWORD = "kiln-umber-vellum-42";

describe("roles without ADMIN_EMAILS", () => {
  it("the first account made is the admin, later ones are artists, and a new account opens with the default allowance", async () => {
    const first = await createUser("first@example.com", PASSWORD);
    await new Promise((r) => setTimeout(r, 5));
    const second = await createUser("second@example.com", PASSWORD);
    expect(await isAdmin(first!)).toBe(true);
    expect(await isAdmin(second!)).toBe(false);
    expect(await userIsAdmin(first!.id)).toBe(true);
    expect(await userIsAdmin("nobody")).toBe(false);
    expect(await roleOf(second!)).toBe("artist");
    expect(await creditsOf(second!.id)).toEqual({ allowance: 500, spent: 0, remaining: 500 });
  });
});

describe("disabling an account", () => {
  it("ends its sessions at once, refuses its password with a reason, and re-enabling lets it in again", async () => {
    const user = (await createUser("painter@example.com", PASSWORD))!;
    const sessionA = await startSession(user.id);
    const sessionB = await startSession(user.id);
    expect(await sessionActive(sessionA, user.id)).toBe(true);

    await setDisabled(user.id, true);
    expect(await sessionActive(sessionA, user.id)).toBe(false);
    expect(await sessionActive(sessionB, user.id)).toBe(false);
    expect(await checkCredentials("painter@example.com", PASSWORD, "192.0.2.7")).toEqual({ ok: false, waitSeconds: 0, disabled: true });
    // Without the password nothing tells that the account exists or is disabled.
    expect(await checkCredentials("painter@example.com", "wrong guess", "192.0.2.7")).toMatchObject({ ok: false });
    expect(await checkCredentials("painter@example.com", "wrong guess", "192.0.2.7")).not.toHaveProperty("disabled");

    await setDisabled(user.id, false);
    const signedIn = await checkCredentials("painter@example.com", PASSWORD, "192.0.2.8");
    expect(signedIn.ok).toBe(true);
    const fresh = await startSession(user.id);
    expect(await sessionActive(fresh, user.id)).toBe(true);
    // Revoked sessions stay revoked.
    expect(await sessionActive(sessionA, user.id)).toBe(false);
  });
});

describe("making accounts", () => {
  it("refuses an e-mail already taken, in any case, and keeps the name given", async () => {
    const named = await createUser("named@example.com", PASSWORD, "Nadia");
    expect(named?.name).toBe("Nadia");
    expect(await createUser("Named@Example.com", PASSWORD)).toBeNull();
  });

  it("links a first GitHub sign-in to the password account of its e-mail, and finds it by GitHub id after", async () => {
    const own = (await createUser("linked@example.com", PASSWORD))!;
    const linked = await userForGithub("4242", "linked@example.com", "Lin");
    expect([linked.id, linked.githubId]).toEqual([own.id, "4242"]);
    // The GitHub profile's e-mail changed: still the same account.
    expect((await userForGithub("4242", "elsewhere@example.com", "Lin")).id).toBe(own.id);
  });

  it("makes a GitHub account without a public e-mail under GitHub's no-reply address, and finds it again", async () => {
    const made = await userForGithub("5151", null, "Quiet");
    expect([made.email, made.name]).toEqual(["5151@users.noreply.github.com", "Quiet"]);
    expect((await userForGithub("5151", null, "Quiet")).id).toBe(made.id);
  });

  it("re-enabling an account that is not disabled leaves its sessions signed in", async () => {
    const user = (await createUser("active@example.com", PASSWORD))!;
    const session = await startSession(user.id);
    await setDisabled(user.id, false);
    expect(await sessionActive(session, user.id)).toBe(true);
  });
});
