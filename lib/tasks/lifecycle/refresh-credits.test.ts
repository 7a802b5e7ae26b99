// What a refresh does to the owner's credits (PGlite in a temporary DATA_DIR): a task that
// fails gets its charge back once, in the transaction that marks it failed; a task that
// succeeds keeps it; a settled task is never moved again. And the window a task whose
// create answer was lost waits for the service's callback, to the millisecond.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, database } from "@/lib/db";
import { creditLedger, studioTasks, users } from "@/lib/db/schema";
import { creditsOf } from "@/lib/credits/ledger";
import { X3dError } from "@/lib/x3d/client";
import type { TaskResult } from "@/lib/x3d/schemas";
import { confirmTask, recordChargedTask } from "../create/record";
import { checkingWindowMs, refreshTask } from "./refresh";
import { oneQueryService, stateOnlyDeps } from "./refresh.test-helpers";
import { forgetTask } from "./task-cache";
import { tempDataDir } from "@/test/harness/temp-dir";

tempDataDir("refresh-credits");

const USER = "user-refresh-credits";
let counter = 0;

/** A task charged as the create form charges it, confirmed by the service unless `lost`. */
async function chargedTask(cost: number, lost = false) {
  const id = `credit-task-${++counter}`;
  const outcome = await recordChargedTask(
    { id, userId: USER, kind: "image-to-3d", options: {}, inputs: {}, cost, callbackSecretHash: null },
    true,
  );
  if (!outcome.ok) throw new Error("could not charge");
  if (!lost) await confirmTask(id, `svc-${id}`);
  forgetTask(id);
  return id;
}

const answering = (answer: () => TaskResult, now = () => new Date()) =>
  stateOnlyDeps(
    oneQueryService(async () => answer()),
    now,
  );
const failure = (code: number) => () => {
  throw new X3dError({ code, msg: "generation failed", kind: "service" });
};
const entries = async (id: string) =>
  (await (await db()).select().from(creditLedger).where(eq(creditLedger.taskId, id))).map((e) => [e.kind, e.amount]).sort();

beforeAll(async () => {
  await (await db()).insert(users).values({ id: USER, email: "refresh-credits@example.com" });
});
afterAll(async () => {
  await (await database()).close();
});

describe("a refresh and the owner's credits", () => {
  it("gives a failed task's charge back, once, however often it is refreshed after", async () => {
    const before = (await creditsOf(USER)).remaining;
    const id = await chargedTask(40);
    expect((await creditsOf(USER)).remaining).toBe(before - 40);
    const failed = await refreshTask(id, { minIntervalMs: 0 }, answering(failure(50010001)));
    expect(failed?.task.state).toBe("failed");
    expect(failed?.task.errorCode).toBe(50010001);
    expect(await entries(id)).toEqual([
      ["charge", -40],
      ["refund", 40],
    ]);
    expect((await creditsOf(USER)).remaining).toBe(before);
    // Settled: later refreshes (a late callback, a poll) change nothing and refund nothing.
    forgetTask(id);
    const again = await refreshTask(id, { minIntervalMs: 0 }, answering(failure(5001001)));
    expect(again?.task.errorCode).toBe(50010001);
    expect(await entries(id)).toEqual([
      ["charge", -40],
      ["refund", 40],
    ]);
  });

  it("keeps the charge of a task that is still running or succeeded", async () => {
    const before = (await creditsOf(USER)).remaining;
    const id = await chargedTask(25);
    const running = await refreshTask(
      id,
      { minIntervalMs: 0 },
      answering(() => ({ task_id: `svc-${id}`, state: "processing" })),
    );
    expect(running?.task.state).toBe("processing");
    expect(await entries(id)).toEqual([["charge", -25]]);
    expect((await creditsOf(USER)).remaining).toBe(before - 25);
  });

  it("never moves a task that succeeded back to failed, nor refunds it", async () => {
    const id = await chargedTask(30);
    await (await db()).update(studioTasks).set({ state: "success" }).where(eq(studioTasks.id, id));
    forgetTask(id);
    // Straight through the state update a failure answer would make.
    const { task } = (await refreshTask(id, { minIntervalMs: 0 }, answering(failure(50010001))))!;
    expect(task.state).toBe("success");
    const [stored] = await (
      await db()
    )
      .select()
      .from(studioTasks)
      .where(and(eq(studioTasks.id, id)));
    expect(stored!.state).toBe("success");
    expect(await entries(id)).toEqual([["charge", -30]]);
  });

  it("a task whose create answer was lost waits exactly its window, then fails and is refunded", async () => {
    const id = await chargedTask(20, true);
    const [stored] = await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id));
    const since = Date.parse(stored!.stateTimes.checking!);
    const at = (ms: number) =>
      answering(
        () => {
          throw new Error("a task without a service id is never queried");
        },
        () => new Date(since + ms),
      );
    const waiting = await refreshTask(id, { minIntervalMs: 0 }, at(checkingWindowMs() - 1));
    expect(waiting?.task.state).toBe("checking");
    expect(await entries(id)).toEqual([["charge", -20]]);
    forgetTask(id);
    const settled = await refreshTask(id, { minIntervalMs: 0 }, at(checkingWindowMs()));
    expect(settled?.task.state).toBe("failed");
    expect(await entries(id)).toEqual([
      ["charge", -20],
      ["refund", 20],
    ]);
  });
});
