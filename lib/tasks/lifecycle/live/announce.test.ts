// Every write of a task row that changes what its page shows is announced on the process's bus
// (lib/tasks/lifecycle/task-cache rememberTask), and no other write is: the real writers on PGlite, in a
// temporary DATA_DIR, with a fake service.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { users } from "@/lib/db/schema";
import type { TaskResult } from "@/lib/x3d/schemas";
import { X3dError } from "@/lib/x3d/client";
import { tempDataDir } from "@/test/harness/temp-dir";
import { adoptFromCallback } from "../callback";
import { deleteTask } from "../delete-task";
import { confirmTask } from "../../create/record";
import { recordTask } from "../../create/record.test-helpers";
import { REFRESH_INTERVAL_MS, refreshTask, type RefreshDeps } from "../refresh";
import { oneQueryService } from "../refresh.test-helpers";
import { loadTask } from "../task-cache";
import { taskChangeBus, type TaskChange } from "./bus";

tempDataDir("announce-test");
const ANN = "announce-ann";
const BOB = "announce-bob";
let clock = Date.parse("2031-03-01T00:00:00Z");
let counter = 0;
let heard: TaskChange[] = [];
let bobHeard: TaskChange[] = [];
const stops: Array<() => void> = [];

const answers = new Map<string, () => Promise<TaskResult>>();
const service = oneQueryService(async (id) => {
  const next = answers.get(id);
  if (!next) throw new Error(`no answer for ${id}`);
  return next();
});
const deps = (): RefreshDeps => ({
  service,
  now: () => new Date(clock),
  fetch: (async (input: string | URL | Request) => new Response(String(input).includes("cover") ? "cover" : "glb")) as typeof fetch,
  deriveDisplay: async (_input, _format, outDir) => {
    fs.writeFileSync(path.join(outDir, "display.glb"), "display");
    return { display: { file: "display.glb" }, preview: null };
  },
});

async function newTask(serviceTaskId: string | null = `svc-${++counter}`) {
  const id = `announce-${++counter}`;
  await recordTask({ id, userId: ANN, kind: "image-to-3d", serviceTaskId, options: {}, inputs: {}, cost: 5, callbackSecretHash: null });
  return { id, serviceTaskId: serviceTaskId ?? "" };
}
const said = (changes: TaskChange[]) => changes.map((c) => `${c.taskId} ${c.state}${c.settled ? " settled" : ""}`);

beforeAll(async () => {
  await (await db()).insert(users).values([
    { id: ANN, email: "ann@example.com" },
    { id: BOB, email: "bob@example.com" },
  ]);
  stops.push(taskChangeBus().subscribe(ANN, (c) => heard.push(c)));
  stops.push(taskChangeBus().subscribe(BOB, (c) => bobHeard.push(c)));
});
afterAll(async () => {
  for (const stop of stops) stop();
  await (await database()).close();
});
beforeEach(() => {
  clock += 60_000;
  heard = [];
  bobHeard = [];
});

describe("task changes announced by the writers of the task row", () => {
  it("a confirmed create announces created; a refresh announces each new state once, not its claims", async () => {
    const { id } = await newTask(null);
    await confirmTask(id, "svc-confirmed");
    answers.set("svc-confirmed", async () => ({ task_id: "svc-confirmed", state: "queueing" }));
    await refreshTask(id, {}, deps());
    clock += REFRESH_INTERVAL_MS;
    await refreshTask(id, {}, deps()); // still queueing: a claim and nothing new
    answers.set("svc-confirmed", async () => ({ task_id: "svc-confirmed", state: "processing" }));
    clock += REFRESH_INTERVAL_MS;
    await refreshTask(id, {}, deps());
    expect(said(heard)).toEqual([`${id} created`, `${id} queueing`, `${id} processing`]);
    expect(heard[0]).toEqual({ userId: ANN, taskId: id, state: "created", settled: false });
    expect(bobHeard).toEqual([]);
  });

  it("a success announces the state, each stored file, then the display copy as settled", async () => {
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => ({
      task_id: serviceTaskId,
      state: "success",
      url: "http://svc.test/files/result.glb?auth_key=k",
      cover_url: "http://svc.test/files/cover.webp?auth_key=k",
    }));
    const outcome = await refreshTask(id, {}, deps());
    expect(outcome?.task).toMatchObject({ displayState: "ready", resultFile: `results/${id}/result.glb` });
    // success (nothing stored yet), cover stored, result stored, display copy made: the lease writes announce nothing.
    expect(said(heard)).toEqual([`${id} success`, `${id} success`, `${id} success`, `${id} success settled`]);
  });

  it("a failure answered by the service is announced as failed and settled", async () => {
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => {
      throw new X3dError({ code: 50010001, msg: "generate failed", kind: "service" });
    });
    await refreshTask(id, {}, deps());
    expect(heard).toEqual([{ userId: ANN, taskId: id, state: "failed", settled: true }]);
  });

  it("a callback adopting a lost create announces created", async () => {
    const { id } = await newTask(null);
    const task = (await loadTask(id))!;
    await adoptFromCallback(task, { code: 200, data: { task_id: "svc-adopted" } });
    expect(said(heard)).toEqual([`${id} created`]);
  });

  it("a delete is announced to the owner, also when an admin deletes it", async () => {
    const mine = await newTask();
    const theirs = await newTask();
    await deleteTask({ id: ANN, admin: false }, mine.id);
    await deleteTask({ id: BOB, admin: false }, theirs.id); // not Bob's: nothing happens
    await deleteTask({ id: BOB, admin: true }, theirs.id);
    expect(heard).toEqual([
      { userId: ANN, taskId: mine.id, state: "deleted", settled: true },
      { userId: ANN, taskId: theirs.id, state: "deleted", settled: true },
    ]);
    expect(bobHeard).toEqual([]);
  });
});
