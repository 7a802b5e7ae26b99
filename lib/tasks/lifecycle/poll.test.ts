import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "@/test/harness/until";
import { db, database } from "@/lib/db";
import { users } from "@/lib/db/schema";
import type { TaskResult } from "@/lib/x3d/schemas";
import { pollTask } from "./poll";
import { recordTask } from "../create/record.test-helpers";
import { refreshTask, type RefreshDeps } from "./refresh";
import { oneQueryService, stateOnlyDeps } from "./refresh.test-helpers";
import { tempDataDir } from "@/test/harness/temp-dir";

// A throwaway database and storage folder: serverEnv() reads DATA_DIR on first use.
tempDataDir("poll-test");

const OWNER = "user-poll";
let clock = Date.parse("2031-01-01T00:00:00Z");
let counter = 0;

/** A service whose next answer the test hands over when it likes (a hung service until then). */
function slowService() {
  let release: (answer: () => TaskResult) => void = () => {};
  const calls: string[] = [];
  const query = (id: string) => {
    calls.push(id);
    return new Promise<TaskResult>((resolve, reject) => {
      release = (answer) => {
        try {
          resolve(answer());
        } catch (e) {
          reject(e);
        }
      };
    });
  };
  const service = oneQueryService(query);
  /** Hands over the answer of call number `n` (1-based) once the refresh has made it. */
  const answer = async (n: number, a: () => TaskResult) => {
    await until(() => calls.length >= n, `service call ${n}`, 10_000);
    release(a);
  };
  return { service, calls, answer };
}

function deps(service: RefreshDeps["service"]) {
  const work: Promise<unknown>[] = [];
  const refreshDeps = stateOnlyDeps(service, () => new Date(clock));
  return {
    work,
    poll: { refresh: (id: string) => refreshTask(id, {}, refreshDeps), background: (p: Promise<unknown>) => void work.push(p) },
  };
}

async function newTask() {
  const id = `poll-task-${++counter}`;
  await recordTask({
    id,
    userId: OWNER,
    kind: "image-to-3d",
    serviceTaskId: `svc-poll-${counter}`,
    options: {},
    inputs: {},
    cost: 10,
    callbackSecretHash: null,
  });
  return id;
}

beforeAll(async () => {
  await (await db()).insert(users).values({ id: OWNER, email: "poll@example.com" });
});
afterAll(async () => {
  await (await database()).close();
});

describe("pollTask", () => {
  it("answers at once while the service hangs, and shows what the refresh learnt in the next poll", async () => {
    const id = await newTask();
    const { service, calls, answer } = slowService();
    const { work, poll } = deps(service);
    clock += 60_000;
    const started = performance.now();
    const first = await pollTask(id, OWNER, poll);
    expect(performance.now() - started).toBeLessThan(500);
    expect(first?.task.state).toBe("created");
    await until(() => calls.length === 1, "the refresh's service call", 10_000);
    expect(calls).toEqual([`svc-poll-${counter}`]);
    // More polls within the interval join the refresh under way: still one service call.
    await pollTask(id, OWNER, poll);
    expect(calls).toHaveLength(1);
    await answer(1, () => ({ task_id: "x", state: "processing" }) as TaskResult);
    await Promise.all(work);
    const next = await pollTask(id, OWNER, poll);
    expect(next?.task.state).toBe("processing");
    expect(next?.problem).toBeUndefined();
  });

  it("carries a refresh's problem into the following polls until a refresh succeeds", async () => {
    const id = await newTask();
    const { service, answer } = slowService();
    const { work, poll } = deps(service);
    clock += 60_000;
    await pollTask(id, OWNER, poll);
    await answer(1, () => {
      throw new Error("connect ECONNREFUSED");
    });
    await Promise.all(work.splice(0));
    expect((await pollTask(id, OWNER, poll))?.problem).toBe("The service could not be reached.");
    await Promise.all(work.splice(0)); // throttled: no new service call within the interval
    clock += 60_000;
    await pollTask(id, OWNER, poll);
    await answer(2, () => ({ task_id: "x", state: "processing" }) as TaskResult);
    await Promise.all(work.splice(0));
    const healed = await pollTask(id, OWNER, poll);
    expect(healed?.problem).toBeUndefined();
    expect(healed?.task.state).toBe("processing");
  });

  it("answers null for another user's task and does not refresh it", async () => {
    const id = await newTask();
    const { service, calls } = slowService();
    const { work, poll } = deps(service);
    clock += 60_000;
    expect(await pollTask(id, "someone-else", poll)).toBeNull();
    expect(await pollTask("no-such-task", OWNER, poll)).toBeNull();
    expect(work).toHaveLength(0);
    expect(calls).toHaveLength(0);
  });
});
