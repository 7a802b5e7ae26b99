// The admin page guards itself. Next renders a page beside its layout, not after it: the layout's
// notFound() keeps the page's output from the response, but not its work. Unguarded, every
// request to /admin, signed out included, ran the page's queries and asked the service for its
// balance. Found when `next build` opened the database to prerender /admin.
import { beforeEach, describe, expect, it, vi } from "vitest";

const calls: string[] = [];
const admin = { current: null as null | { id: string; email: string } };
vi.mock("@/lib/accounts", () => ({ currentAdmin: async () => admin.current }));
vi.mock("@/lib/admin/users", () => ({ adminUserRows: async () => (calls.push("users"), []) }));
vi.mock("@/lib/admin/service-balance", () => ({ serviceBalance: async () => (calls.push("balance"), { balance: 5 }) }));
vi.mock("@/lib/tasks/lifecycle/service-errors", () => ({ recentServiceErrors: async () => (calls.push("errors"), []) }));
vi.mock("@/lib/admin/tasks", () => ({ recentTasks: async () => (calls.push("tasks"), []) }));
vi.mock("@/app/admin/actions", () => ({ setAllowanceAction: async () => ({}), setDisabledAction: async () => ({}) }));

const { default: AdminPage } = await import("@/app/admin/page");

beforeEach(() => {
  calls.length = 0;
});

describe("the admin page", () => {
  it("answers 404 to anyone but an admin before it queries anything", async () => {
    admin.current = null;
    await expect(AdminPage()).rejects.toThrow("NEXT_HTTP_ERROR_FALLBACK;404");
    expect(calls).toEqual([]);
  });

  it("for an admin, gathers the users, the service's balance, its errors and the recent tasks", async () => {
    admin.current = { id: "a1", email: "admin@example.com" };
    await expect(AdminPage()).resolves.toBeTruthy();
    expect(calls.sort()).toEqual(["balance", "errors", "tasks", "users"]);
  });
});
