// Per-user credits against a real database (PGlite, or PostgreSQL in npm test's PostgreSQL run):
// charges written with the task's row, refusals before the service is called, refunds of
// failed tasks, allowances, and many creates at once by one user.
import { afterAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.ADMIN_EMAILS = "boss@example.com";
  process.env.X3D_DEFAULT_ALLOWANCE = "100";
});
// next-auth does not load outside Next.js; these tests pass user ids.
vi.mock("@/lib/accounts/current-user", () => ({ currentUser: async () => null }));

const { openTestDatabase } = await import("@/lib/db/test-database.test-helpers");
const database = await openTestDatabase("credits");
const { db } = await import("@/lib/db");
const { creditLedger, studioTasks, users } = await import("@/lib/db/schema");
const { creditsOf, setAllowance } = await import("./ledger");
const { createWithService } = await import("@/lib/tasks/create/create-task");
const { adoptFromCallback } = await import("@/lib/tasks/lifecycle/callback");
const { refreshTask } = await import("@/lib/tasks/lifecycle/refresh");
const { adminUserRows } = await import("@/lib/admin/users");
const { recentServiceErrors } = await import("@/lib/tasks/lifecycle/service-errors");
const { X3dError } = await import("@/lib/x3d/client");
const { eq } = await import("drizzle-orm");

afterAll(() => database.dispose());

let n = 0;
async function newUser(email = `artist${++n}@example.com`): Promise<string> {
  const id = `user-${email}`;
  await (await db()).insert(users).values({ id, email });
  return id;
}

const ledgerOf = async (userId: string) =>
  (await db()).select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.id);
const tasksOf = async (userId: string) => (await db()).select().from(studioTasks).where(eq(studioTasks.userId, userId));

function create(userId: string, cost: number, call: () => Promise<{ task_id: string }> = async () => ({ task_id: `svc-${++n}` })) {
  const calls: string[] = [];
  const outcome = createWithService({
    userId,
    kind: "image-to-3d",
    cost,
    options: {},
    inputs: {},
    shown: ["model"],
    call: async (callbackUrl) => {
      calls.push(callbackUrl);
      return call();
    },
  });
  return { outcome, calls };
}

describe("charging", () => {
  it("writes the task's row and its charge together, and refuses a task the remainder does not cover without calling the service", async () => {
    const artist = await newUser();
    const first = create(artist, 60);
    const created = await first.outcome;
    expect(created.status).toBe("created");
    expect(first.calls).toHaveLength(1);
    const [task] = await tasksOf(artist);
    expect(task?.state).toBe("created");
    expect(task?.serviceTaskId).toMatch(/^svc-/);
    expect((await ledgerOf(artist)).map((r) => [r.kind, r.amount, r.taskId])).toEqual([
      ["grant", 100, null],
      ["charge", -60, task?.id],
    ]);
    expect(await creditsOf(artist)).toEqual({ allowance: 100, spent: 60, remaining: 40 });

    const second = create(artist, 50);
    const refused = await second.outcome;
    expect(second.calls).toHaveLength(0);
    expect(refused).toMatchObject({
      status: "error",
      message: expect.stringContaining("This task costs 50 credits and you have 40 left."),
    });
    expect(await tasksOf(artist)).toHaveLength(1);
    expect(await creditsOf(artist)).toEqual({ allowance: 100, spent: 60, remaining: 40 });
  });

  it("a task the service refuses is neither stored nor charged", async () => {
    const artist = await newUser();
    const refused = create(artist, 30, async () => {
      throw new X3dError({ code: 10031001, msg: "model invalid", kind: "service" });
    });
    expect(await refused.outcome).toMatchObject({ status: "error", code: 10031001 });
    expect(await tasksOf(artist)).toHaveLength(0);
    expect((await ledgerOf(artist)).map((r) => r.kind)).toEqual(["grant"]);
    expect((await creditsOf(artist)).remaining).toBe(100);
    // The admin page lists it among the service's recent errors.
    expect((await recentServiceErrors(5))[0]).toMatchObject({
      operation: "create",
      code: 10031001,
      message: "x3d 10031001: model invalid",
    });
  });

  it("many creates at once by one user never spend past the allowance", async () => {
    const artist = await newUser();
    const attempts = Array.from({ length: 6 }, () => create(artist, 40).outcome);
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o.status === "created")).toHaveLength(2);
    expect(await tasksOf(artist)).toHaveLength(2);
    expect(await creditsOf(artist)).toEqual({ allowance: 100, spent: 80, remaining: 20 });
  });

  it("admins are not held to an allowance; their spending is still recorded", async () => {
    const boss = await newUser("boss@example.com");
    expect((await create(boss, 90).outcome).status).toBe("created");
    expect((await create(boss, 90).outcome).status).toBe("created");
    expect(await creditsOf(boss)).toEqual({ allowance: 100, spent: 180, remaining: -80 });
  });
});

describe("refunds", () => {
  it("a task the service failed is refunded once, however many refreshes see it", async () => {
    const artist = await newUser();
    await create(artist, 70).outcome;
    const [task] = await tasksOf(artist);
    const failing = {
      queryTask: async () => {
        throw new X3dError({ code: 50010001, msg: "generation failed", kind: "service" });
      },
    } as never;
    const deps = { service: failing, now: () => new Date(), fetch, deriveDisplay: async () => ({}) as never };
    await refreshTask(task!.id, { minIntervalMs: 0 }, deps);
    await refreshTask(task!.id, { minIntervalMs: 0 }, deps);
    expect((await tasksOf(artist))[0]?.state).toBe("failed");
    expect((await ledgerOf(artist)).map((r) => [r.kind, r.amount])).toEqual([
      ["grant", 100],
      ["charge", -70],
      ["refund", 70],
    ]);
    expect(await creditsOf(artist)).toEqual({ allowance: 100, spent: 0, remaining: 100 });
  });

  it("a task whose answer was lost and whose callback says it failed is refunded", async () => {
    const artist = await newUser();
    const lost = create(artist, 25, async () => {
      throw new X3dError({ code: 10000000, msg: "timeout", kind: "network", mayHaveReached: true });
    });
    expect((await lost.outcome).status).toBe("created");
    const [task] = await tasksOf(artist);
    expect(task?.state).toBe("checking");
    expect((await creditsOf(artist)).remaining).toBe(75);
    await adoptFromCallback(task!, { code: 50010001, msg: "generation failed", data: null });
    expect((await tasksOf(artist))[0]?.state).toBe("failed");
    expect((await creditsOf(artist)).remaining).toBe(100);
  });
});

describe("allowances", () => {
  it("an admin's change is a grant of the difference, and the ledger's sum stays the balance", async () => {
    const boss =
      (await (await db()).select().from(users).where(eq(users.email, "boss@example.com")))[0]?.id ?? (await newUser("boss@example.com"));
    const artist = await newUser();
    await create(artist, 40).outcome;
    expect(await setAllowance(boss, artist, 250)).toEqual({ allowance: 250, spent: 40, remaining: 210 });
    expect(await setAllowance(boss, artist, 30)).toEqual({ allowance: 30, spent: 40, remaining: -10 });
    const rows = await ledgerOf(artist);
    expect(rows.map((r) => [r.kind, r.amount, r.actorId])).toEqual([
      ["grant", 100, null],
      ["charge", -40, null],
      ["grant", 150, boss],
      ["grant", -220, boss],
    ]);
    expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(-10);
    expect((await create(artist, 1).outcome).status).toBe("error");

    const row = (await adminUserRows()).find((r) => r.id === artist);
    expect(row).toMatchObject({ role: "artist", allowance: 30, spent: 40, remaining: -10, tasks: 1, disabled: false });
    expect(row?.lastActive).toBeInstanceOf(Date);
    expect((await adminUserRows()).find((r) => r.id === boss)?.role).toBe("admin");
  });
});
