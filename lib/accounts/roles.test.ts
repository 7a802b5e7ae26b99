// lib/accounts/roles.ts with ADMIN_EMAILS set: the accounts it names are admins, in whatever
// case the e-mail is written, and no other account is, not even the install's first
// (accounts.test.ts covers the first-account rule without it). No database is read.
import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.ADMIN_EMAILS = "boss@example.com, Deputy@Example.com";
});

const { isAdmin, roleOf } = await import("./roles");

describe("roles with ADMIN_EMAILS", () => {
  it("makes admins of the accounts named, whatever the case of their e-mail", async () => {
    expect(await roleOf({ id: "u1", email: "boss@example.com" })).toBe("admin");
    expect(await isAdmin({ id: "u2", email: "Boss@Example.COM" })).toBe(true);
    expect(await isAdmin({ id: "u3", email: "deputy@example.com" })).toBe(true);
  });

  it("makes artists of every other account, even one whose e-mail contains a named one", async () => {
    expect(await roleOf({ id: "u4", email: "painter@example.com" })).toBe("artist");
    expect(await isAdmin({ id: "u5", email: "oss@example.com" })).toBe(false);
    expect(await isAdmin({ id: "u6", email: "boss@example.com.evil" })).toBe(false);
  });
});
