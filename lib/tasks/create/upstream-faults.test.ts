// The studio against a service that hangs, answers garbage or 5xx, expires tokens and drops
// callbacks (test/harness/fake-upstream): the real client, the real create and refresh paths,
// and callbacks delivered as the callback route does. No task is lost or made twice, and the
// balance is whatever the service says.
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, database } from "@/lib/db";
import { studioTasks, users } from "@/lib/db/schema";
import { createX3dClient } from "@/lib/x3d/client";
import { fakeUpstream, type FakeUpstream } from "@/test/harness/fake-upstream";
import { adoptFromCallback, taskForCallback } from "../lifecycle/callback";
import { createWithService, type CreateOutcome } from "./create-task";
import { taskView, UNCONFIRMED_MESSAGE } from "../model/task-view";
import { refreshTask } from "../lifecycle/refresh";
import { stateOnlyDeps } from "../lifecycle/refresh.test-helpers";
import { tempDataDir } from "@/test/harness/temp-dir";

// next-auth does not load outside Next.js; createWithService takes the user id.

tempDataDir("upstream-faults");

const USER = "user-upstream";
const IMAGE = fs.readFileSync(path.resolve(import.meta.dirname, "../../../test/fixtures/chair.png"));
let fake: FakeUpstream;
let client: ReturnType<typeof createX3dClient>;

const deps = (now?: () => Date) => stateOnlyDeps(client, now);

const submit = (): Promise<CreateOutcome> =>
  createWithService({
    userId: USER,
    kind: "image-to-3d",
    cost: fake.cost,
    options: { model: "x3dv1.5" },
    inputs: {},
    shown: ["images"],
    call: (callback_url) =>
      client.submitTask({
        model: "x3dv1.5",
        resolution: "512",
        images: { name: "chair.png", type: "image/png", data: new Uint8Array(IMAGE) },
        callback_url,
      }),
  });

const studioTask = async (outcome: CreateOutcome) => {
  if (outcome.status !== "created") throw new Error(`not created: ${JSON.stringify(outcome)}`);
  return (await (await db()).select().from(studioTasks).where(eq(studioTasks.id, outcome.id)))[0]!;
};
const studioCount = async () => (await (await db()).select().from(studioTasks).where(eq(studioTasks.userId, USER))).length;

/** What the callback route does with the service's callback for `serviceId`. */
async function deliverCallback(serviceId: string) {
  const { url, body } = fake.callbackFor(serviceId);
  const [, id, secret] = /\/api\/callbacks\/([^/]+)\/([^/]+)$/.exec(new URL(url).pathname) ?? [];
  const task = await taskForCallback(id!, secret!);
  if (!task) throw new Error("the callback URL does not name a task with that secret");
  return adoptFromCallback(task, body);
}

beforeAll(async () => {
  await (await db()).insert(users).values({ id: USER, email: "upstream@example.com" });
  fake = await fakeUpstream();
  client = createX3dClient({
    baseUrl: fake.url,
    clientId: "fake-client",
    clientSecret: "fake-secret-0123",
    timeouts: { connectMs: 500, headersMs: 600, bodyMs: 600 },
  });
});
afterAll(async () => {
  await fake.close();
  await (await database()).close();
});
beforeEach(() => {
  fake.faults = { submit: "ok", query: "ok", token: "ok", balance: "ok" };
});

describe("creating a task when the service misbehaves", () => {
  it("a hung submit: one task made and charged at the service, kept as checking, adopted by its callback", async () => {
    fake.faults.submit = "hang";
    const [submitsBefore, balanceBefore, made] = [fake.submits, fake.balance, fake.tasks.size];
    const started = performance.now();
    const task = await studioTask(await submit());
    expect(performance.now() - started).toBeLessThan(5_000); // not 301 s
    expect(task).toMatchObject({ state: "checking", serviceTaskId: null });
    expect(fake.submits - submitsBefore).toBe(1); // the client never re-sends a create
    expect(fake.tasks.size - made).toBe(1);
    expect(fake.balance).toBe(balanceBefore - fake.cost);
    const serviceId = [...fake.tasks.keys()].at(-1)!;
    fake.tasks.get(serviceId)!.state = "processing";
    const adopted = await deliverCallback(serviceId);
    expect(adopted).toMatchObject({ state: "created", serviceTaskId: serviceId });
    const refreshed = await refreshTask(task.id, { minIntervalMs: 0 }, deps());
    expect(refreshed?.task.state).toBe("processing");
    // Credits as the service reports them.
    expect((await client.balance()).totalBalance).toBe(fake.balance);
  });

  it("a garbage 200 whose callback never comes: checking, then failed as unconfirmed after the window, never made twice", async () => {
    fake.faults.submit = "garbage";
    const [submitsBefore, made] = [fake.submits, fake.tasks.size];
    const task = await studioTask(await submit());
    expect(task.state).toBe("checking");
    expect(fake.submits - submitsBefore).toBe(1);
    expect(fake.tasks.size - made).toBe(1);
    // The callback is dropped; the window passes.
    const settled = (await refreshTask(
      task.id,
      { minIntervalMs: 0 },
      deps(() => new Date(Date.now() + 31 * 60_000)),
    ))!.task;
    expect(settled.state).toBe("failed");
    expect(taskView(settled).errorMessage).toBe(UNCONFIRMED_MESSAGE);
  });

  it("a 502 page from a gateway in front of the service: kept as checking", async () => {
    fake.faults.submit = "bad-gateway";
    expect((await studioTask(await submit())).state).toBe("checking");
  });

  it("the service's own system error: nothing recorded, nothing charged", async () => {
    fake.faults.submit = "system-error";
    const [count, balance] = [await studioCount(), fake.balance];
    const outcome = await submit();
    expect(outcome.status).toBe("error");
    expect(await studioCount()).toBe(count);
    expect(fake.balance).toBe(balance);
  });

  it("a token that expired: renewed and sent again once, one task made", async () => {
    await client.getToken();
    fake.faults.submit = "expire-token";
    const [submitsBefore, made] = [fake.submits, fake.tasks.size];
    const task = await studioTask(await submit());
    expect(task.state).toBe("created");
    expect(fake.submits - submitsBefore).toBe(2); // refused with 401, then the retry
    expect(fake.tasks.size - made).toBe(1);
    expect(fake.tasks.has(task.serviceTaskId!)).toBe(true);
  });
});

describe("following a task when the service misbehaves", () => {
  it("a query that hangs or answers garbage leaves the task as it was, with a problem to show", async () => {
    const task = await studioTask(await submit());
    for (const fault of ["hang", "garbage"] as const) {
      fake.faults.query = fault;
      const outcome = await refreshTask(task.id, { minIntervalMs: 0 }, deps());
      expect(outcome?.task.state).toBe("created");
      expect(outcome?.problem).toBeTruthy();
    }
  });

  it("a task the service forgot settles as failed after three answers", async () => {
    const task = await studioTask(await submit());
    fake.faults.query = "unknown";
    for (let i = 0; i < 3; i++) await refreshTask(task.id, { minIntervalMs: 0 }, deps());
    const settled = (await refreshTask(task.id, { minIntervalMs: 0 }, deps()))!.task;
    expect(settled).toMatchObject({ state: "failed", errorCode: 10030010 });
  });
});
