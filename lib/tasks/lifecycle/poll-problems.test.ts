// What a poll carries besides the task: the last refresh's problem, and no refresh at all for a
// settled task (PGlite in a temporary DATA_DIR; the refresh is the poll's injected dependency).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { studioTasks, users, type StudioTask } from "@/lib/db/schema";
import { pollTask } from "./poll";
import type { RefreshOutcome } from "./refresh";

import { plantTaskRow } from "../create/record.test-helpers";
import { tempDataDir } from "@/test/harness/temp-dir";
tempDataDir("poll-problems-test");
const USER = "pp-user";

let counter = 0;
const newTask = (values: Partial<StudioTask> = {}) =>
  plantTaskRow({ id: `pp-${++counter}`, userId: USER, kind: "split", state: "processing", ...values });

/** Poll deps whose refresh answers `outcome` (or throws it), collecting the background work. */
function deps(outcome: (task: StudioTask) => RefreshOutcome | Error) {
  const refreshed: string[] = [];
  const work: Promise<unknown>[] = [];
  return {
    refreshed,
    settle: () => Promise.all(work.splice(0)),
    poll: {
      refresh: async (id: string) => {
        refreshed.push(id);
        const [row] = await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id));
        const answer = outcome(row!);
        if (answer instanceof Error) throw answer;
        return answer;
      },
      background: (p: Promise<unknown>) => void work.push(p),
    },
  };
}

beforeAll(async () => {
  await (await db()).insert(users).values({ id: USER, email: "pp@example.com" });
});
afterAll(async () => {
  await (await database()).close();
});

describe("pollTask", () => {
  it("shows the refresh's own problem, then none once a refresh has none", async () => {
    const task = await newTask();
    let problem: string | undefined = "The result could not be saved yet; trying again.";
    const d = deps((t) => (problem ? { task: t, problem } : { task: t }));
    expect(await pollTask(task.id, USER, d.poll)).toEqual({ task: expect.objectContaining({ id: task.id }) });
    await d.settle();
    expect((await pollTask(task.id, USER, d.poll))?.problem).toBe("The result could not be saved yet; trying again.");
    await d.settle();
    problem = undefined;
    expect((await pollTask(task.id, USER, d.poll))?.problem).toBe("The result could not be saved yet; trying again.");
    await d.settle();
    const healed = await pollTask(task.id, USER, d.poll);
    expect(healed).toEqual({ task: expect.objectContaining({ id: task.id }) });
    expect(healed && "problem" in healed).toBe(false);
  });

  it("says the service could not be reached when the refresh itself fails", async () => {
    const task = await newTask();
    const d = deps(() => new Error("boom"));
    await pollTask(task.id, USER, d.poll);
    await d.settle();
    expect((await pollTask(task.id, USER, d.poll))?.problem).toBe("The service could not be reached.");
  });

  it("does not refresh a settled task", async () => {
    const failed = await newTask({ state: "failed" });
    const done = await newTask({ state: "success", resultFile: "results/x/result.glb", displayState: "ready" });
    const d = deps((t) => ({ task: t }));
    expect((await pollTask(failed.id, USER, d.poll))?.task.state).toBe("failed");
    expect((await pollTask(done.id, USER, d.poll))?.task.state).toBe("success");
    expect(d.refreshed).toEqual([]);
    // Stored but its display copy not yet derived: refreshed.
    const copying = await newTask({ state: "success", resultFile: "results/y/result.glb" });
    await pollTask(copying.id, USER, d.poll);
    expect(d.refreshed).toEqual([copying.id]);
  });
});
