// The status route's one-second cache of task rows (PGlite in a temporary DATA_DIR).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { studioTasks, users, type StudioTask } from "@/lib/db/schema";
import { cachedTask, forgetDeletedTask, forgetTask, loadTask, rememberTask, TASK_CACHE_MS } from "./task-cache";
import { tempDataDir } from "@/test/harness/temp-dir";

tempDataDir("task-cache-test");
const USER = "cache-user";

let counter = 0;
async function newTask(): Promise<StudioTask> {
  const [row] = await (
    await db()
  )
    .insert(studioTasks)
    .values({
      id: `cache-${++counter}`,
      userId: USER,
      kind: "split",
      serviceTaskId: "svc",
      options: {},
      inputs: {},
      state: "created",
      stateTimes: {},
    })
    .returning();
  if (!row) throw new Error("no row");
  return row;
}
/** Another process's write: straight to the database, not through the cache. */
const writeElsewhere = async (id: string, state: StudioTask["state"]) =>
  (await db()).update(studioTasks).set({ state }).where(eq(studioTasks.id, id));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  await (await db()).insert(users).values({ id: USER, email: "cache@example.com" });
});
afterAll(async () => {
  await (await database()).close();
});

describe("task cache", () => {
  it("answers from memory for a second, then reads the database again", async () => {
    const task = await newTask();
    await writeElsewhere(task.id, "queueing");
    // The row as this process last saw it is answered, not the database's.
    rememberTask(task);
    expect((await cachedTask(task.id))?.state).toBe("created");
    await pause(TASK_CACHE_MS + 200);
    expect((await cachedTask(task.id))?.state).toBe("queueing");
  });

  it("takes this process's own writes at once, and reads afresh after forgetting", async () => {
    const task = await newTask();
    await cachedTask(task.id);
    expect(rememberTask({ ...task, state: "processing" })).toMatchObject({ state: "processing" });
    expect((await cachedTask(task.id))?.state).toBe("processing");
    await writeElsewhere(task.id, "success");
    forgetTask(task.id);
    expect((await cachedTask(task.id))?.state).toBe("success");
    await writeElsewhere(task.id, "failed");
    expect((await loadTask(task.id))?.state).toBe("failed");
    expect((await cachedTask(task.id))?.state).toBe("failed");
  });

  it("remembers that a task does not exist", async () => {
    expect(await cachedTask("cache-none")).toBeNull();
    expect(await loadTask("cache-none")).toBeNull();
  });

  it("answers no such task once this process deleted it, whatever a late read or write brings", async () => {
    const task = await newTask();
    forgetDeletedTask(task.id);
    expect(await cachedTask(task.id)).toBeNull();
    expect(await loadTask(task.id)).toBeNull();
    rememberTask(task);
    expect(await cachedTask(task.id)).toBeNull();
    forgetTask(task.id);
    expect(await cachedTask(task.id)).toBeNull();
  });
});
