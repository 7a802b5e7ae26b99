// A create whose answer is lost (timeout, dropped connection, garbage) and a task the service
// forgets: nothing a user paid for may vanish, nothing may be polled forever.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, database } from "@/lib/db";
import { studioTasks, users } from "@/lib/db/schema";
import { X3dError } from "@/lib/x3d/client";
import type { TaskResult } from "@/lib/x3d/schemas";
import { adoptFromCallback } from "../lifecycle/callback";
import { createWithService, type CreateRequest } from "./create-task";
import { CHECKING_NOTICE, taskView, UNCONFIRMED_MESSAGE } from "../model/task-view";
import { recordTask } from "./record.test-helpers";
import { refreshTask, UNKNOWN_TASK_CODE } from "../lifecycle/refresh";
import { oneQueryService, stateOnlyDeps } from "../lifecycle/refresh.test-helpers";
import { loadTask } from "../lifecycle/task-cache";
import { tempDataDir } from "@/test/harness/temp-dir";

// next-auth does not load outside Next.js; createWithService takes the user id.

tempDataDir("lost-answers");

const USER = "user-lost";
let counter = 0;

const request = (call: CreateRequest["call"]): CreateRequest => ({
  userId: USER,
  kind: "image-to-3d",
  cost: 15,
  options: { model: "x3dv1.5" },
  inputs: {},
  shown: ["images"],
  call,
});
const row = async (id: string) => (await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id)))[0]!;
const count = async () => (await (await db()).select().from(studioTasks).where(eq(studioTasks.userId, USER))).length;

/** Refresh deps whose service answers from `answers` in turn, counting calls. */
function service(answers: Array<() => TaskResult>, now = () => new Date()) {
  const calls: string[] = [];
  const query = async (id: string) => {
    calls.push(id);
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    return next();
  };
  return { deps: stateOnlyDeps(oneQueryService(query), now), calls };
}

const notFound = (): TaskResult => {
  throw new X3dError({ code: UNKNOWN_TASK_CODE, msg: "task not found", kind: "service" });
};

beforeAll(async () => {
  await (await db()).insert(users).values({ id: USER, email: "lost@example.com" });
});
afterAll(async () => {
  await (await database()).close();
});

describe("a create whose answer was lost", () => {
  it("keeps the task as checking, with no service id, when the request may have reached the service", async () => {
    const before = await count();
    const outcome = await createWithService(
      request(async () => {
        throw new X3dError({
          code: 10000000,
          msg: "network failure calling /open-api/v1/submit-task: no answer within 60 s",
          kind: "network",
          mayHaveReached: true,
        });
      }),
    );
    expect(outcome.status).toBe("created");
    if (outcome.status !== "created") return;
    const task = await row(outcome.id);
    expect(task).toMatchObject({ state: "checking", serviceTaskId: null, cost: 15 });
    expect(task.stateTimes.checking).toBeTruthy();
    expect(task.callbackSecretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await count()).toBe(before + 1);
    const view = taskView(task);
    expect(view.problem).toBe(CHECKING_NOTICE);
    expect(view.settled).toBe(false);
  });

  it("keeps a garbage 200 as checking too", async () => {
    const outcome = await createWithService(
      request(async () => {
        throw new X3dError({ code: 10000000, msg: "non-JSON answer", kind: "response", httpStatus: 200 });
      }),
    );
    expect(outcome.status).toBe("created");
    if (outcome.status === "created") expect((await row(outcome.id)).state).toBe("checking");
  });

  it("records nothing when the request never left (connection refused) or an HTTP 4xx page answered", async () => {
    const before = await count();
    for (const error of [
      new X3dError({ code: 10000000, msg: "connection refused", kind: "network", mayHaveReached: false }),
      new X3dError({ code: 10000000, msg: "non-JSON answer (HTTP 404)", kind: "response", httpStatus: 404 }),
      new X3dError({ code: 30010000, msg: "balance is not enough", kind: "service" }),
    ]) {
      const outcome = await createWithService(request(() => Promise.reject(error)));
      expect(outcome.status).toBe("error");
    }
    expect(await count()).toBe(before);
  });

  it("takes its service id from the service's callback, then follows the service", async () => {
    const outcome = await createWithService(
      request(() => Promise.reject(new X3dError({ code: 10000000, msg: "socket hang up", kind: "network" }))),
    );
    if (outcome.status !== "created") throw new Error("not created");
    const checking = await row(outcome.id);
    // A body without a task id, or an answer that is not a callback, changes nothing.
    expect((await adoptFromCallback(checking, { code: 200, data: {} })).state).toBe("checking");
    expect((await adoptFromCallback(checking, "not json")).state).toBe("checking");
    const adopted = await adoptFromCallback(checking, { code: 200, msg: "success", data: { task_id: "svc-adopted", state: "success" } });
    expect(adopted).toMatchObject({ state: "created", serviceTaskId: "svc-adopted" });
    // A second callback cannot move it to another id.
    expect((await adoptFromCallback(adopted, { code: 200, data: { task_id: "svc-other" } })).serviceTaskId).toBe("svc-adopted");
    const { deps, calls } = service([() => ({ task_id: "svc-adopted", state: "processing" }) as TaskResult]);
    const refreshed = await refreshTask(outcome.id, { minIntervalMs: 0 }, deps);
    expect(calls).toEqual(["svc-adopted"]);
    expect(refreshed?.task.state).toBe("processing");
  });

  it("settles as failed (refunded by the service) on a failure callback", async () => {
    const outcome = await createWithService(request(() => Promise.reject(new X3dError({ code: 10000000, msg: "reset", kind: "network" }))));
    if (outcome.status !== "created") throw new Error("not created");
    const failed = await adoptFromCallback(await row(outcome.id), { code: 50010001, msg: "generation failed", data: null });
    expect(failed).toMatchObject({ state: "failed", errorCode: 50010001 });
    expect(taskView(failed).refunded).toBe(true);
  });

  it("is never queried without an id, and settles as failed once the window passes without a callback", async () => {
    const outcome = await createWithService(
      request(() => Promise.reject(new X3dError({ code: 10000000, msg: "timeout", kind: "network" }))),
    );
    if (outcome.status !== "created") throw new Error("not created");
    const early = service([]);
    expect((await refreshTask(outcome.id, { minIntervalMs: 0 }, early.deps))?.task.state).toBe("checking");
    expect(early.calls).toEqual([]);
    const late = service([], () => new Date(Date.now() + 31 * 60_000));
    const settled = (await refreshTask(outcome.id, { minIntervalMs: 0 }, late.deps))!.task;
    expect(late.calls).toEqual([]);
    expect(settled.state).toBe("failed");
    const view = taskView(settled);
    expect(view.settled).toBe(true);
    expect(view.errorMessage).toBe(UNCONFIRMED_MESSAGE);
    expect(view.refunded).toBe(false);
  });
});

describe("a task the service does not know", () => {
  const newTask = async () => {
    const id = `lost-task-${++counter}`;
    await recordTask({
      id,
      userId: USER,
      kind: "split",
      serviceTaskId: `svc-lost-${counter}`,
      options: {},
      inputs: {},
      cost: 10,
      callbackSecretHash: null,
    });
    return id;
  };

  it("settles as failed after three answers of 10030010 in a row, not polled forever", async () => {
    const id = await newTask();
    const { deps, calls } = service([notFound, notFound, notFound, () => ({ task_id: "x", state: "processing" }) as TaskResult]);
    const first = await refreshTask(id, { minIntervalMs: 0 }, deps);
    expect(first?.task.state).toBe("created");
    expect(first?.problem).toMatch(/does not know this task \(1 of 3/);
    await refreshTask(id, { minIntervalMs: 0 }, deps);
    const third = await refreshTask(id, { minIntervalMs: 0 }, deps);
    expect(third?.task).toMatchObject({ state: "failed", errorCode: UNKNOWN_TASK_CODE });
    await refreshTask(id, { minIntervalMs: 0 }, deps);
    expect(calls).toHaveLength(3); // settled: no fourth question
  });

  it("starts counting again after an answer that knows it", async () => {
    const id = await newTask();
    const processing = () => ({ task_id: "x", state: "processing" }) as TaskResult;
    const { deps } = service([notFound, notFound, processing, notFound, notFound]);
    for (let i = 0; i < 5; i++) await refreshTask(id, { minIntervalMs: 0 }, deps);
    const task = await loadTask(id);
    expect(task).toMatchObject({ state: "processing", unknownAnswers: 2 });
  });
});
