// Writes that settle a task outside a refresh: the viewer's display copy of a stored result,
// and a callback adopting a task whose create answer was lost (PGlite, temporary DATA_DIR).
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { creditLedger, studioTasks, users, type StudioTask } from "@/lib/db/schema";
import { adoptFromCallback } from "./callback";
import { makeDisplayCopy, type DeriveDisplay } from "./display-copy";

import { plantTaskRow } from "../create/record.test-helpers";
import { tempDataDir } from "@/test/harness/temp-dir";
const dataDir = tempDataDir("task-updates-test");
const USER = "upd-user";

let counter = 0;
/** A task row, with its result file stored when it names one. */
const newTask = (values: Partial<StudioTask> = {}) => {
  if (values.resultFile) {
    const file = path.join(dataDir, "studio", values.resultFile);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "result");
  }
  return plantTaskRow({ id: `upd-${++counter}`, userId: USER, ...values });
};
const rowOf = async (id: string) => (await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id)))[0];

/** A deriver recording its calls, writing the files named into its output folder (as the real one does) and answering with them. */
function deriver(answer: { display: string; preview?: string } | Error) {
  const calls: Array<{ input: string; format: string; outDir: string }> = [];
  const derive: DeriveDisplay = async (input, format, outDir) => {
    calls.push({ input, format, outDir });
    if (answer instanceof Error) throw answer;
    for (const file of [answer.display, answer.preview]) if (file) fs.writeFileSync(path.join(outDir, path.basename(file)), "glb");
    return { display: { file: answer.display }, preview: answer.preview ? { file: answer.preview } : null };
  };
  return { derive, calls };
}

beforeAll(async () => {
  await (await db()).insert(users).values({ id: USER, email: "upd@example.com" });
});
afterAll(async () => {
  await (await database()).close();
});

describe("makeDisplayCopy", () => {
  it("derives the copies beside the result and records them by name", async () => {
    const task = await newTask({ resultFile: "results/a/result.obj" });
    const d = deriver({ display: "/tmp/anywhere/display.glb", preview: "preview.glb" });
    const done = await makeDisplayCopy(task, d.derive);
    expect(d.calls).toEqual([
      { input: path.join(dataDir, "studio", "results/a/result.obj"), format: "obj", outDir: path.join(dataDir, "studio", "results/a") },
    ]);
    expect(done).toMatchObject({ displayState: "ready", displayFile: "results/a/display.glb", previewFile: "results/a/preview.glb" });
    expect(await rowOf(task.id)).toMatchObject({ displayState: "ready", displayFile: "results/a/display.glb" });
    // Once settled, it is never derived again.
    expect(await makeDisplayCopy(done, d.derive)).toBe(done);
    expect(d.calls).toHaveLength(1);
  });

  it("records no preview for a small model", async () => {
    const task = await newTask({ resultFile: "results/b/result.glb" });
    expect(await makeDisplayCopy(task, deriver({ display: "display.glb" }).derive)).toMatchObject({
      displayState: "ready",
      displayFile: "results/b/display.glb",
      previewFile: null,
    });
  });

  it("does nothing before the result is stored", async () => {
    const task = await newTask({ state: "processing" });
    const d = deriver({ display: "display.glb" });
    expect(await makeDisplayCopy(task, d.derive)).toBe(task);
    expect(d.calls).toEqual([]);
    expect((await rowOf(task.id))?.displayState).toBeNull();
  });

  it("gives results that are not meshes no copy, and a failed derivation the original", async () => {
    const image = await newTask({ kind: "depth", resultFile: "results/c/result.png" });
    const d = deriver({ display: "display.glb" });
    expect((await makeDisplayCopy(image, d.derive)).displayState).toBe("none");
    expect(d.calls).toEqual([]);
    const broken = await newTask({ resultFile: "results/d/result.glb" });
    expect(await makeDisplayCopy(broken, deriver(new Error("bad mesh")).derive)).toMatchObject({
      displayState: "failed",
      displayFile: null,
    });
    expect((await rowOf(broken.id))?.displayState).toBe("failed");
  });

  it("leaves a derivation stopped by the signal to do later", async () => {
    const task = await newTask({ resultFile: "results/e/result.glb" });
    const stop = new AbortController();
    stop.abort();
    expect(await makeDisplayCopy(task, deriver(new Error("stopped")).derive, stop.signal)).toBe(task);
    expect((await rowOf(task.id))?.displayState).toBeNull();
    // A signal that did not fire does not stop anything.
    expect((await makeDisplayCopy(task, deriver(new Error("bad")).derive, new AbortController().signal)).displayState).toBe("failed");
  });

  it("keeps what another process recorded first", async () => {
    const task = await newTask({ resultFile: "results/f/result.glb" });
    await (await db()).update(studioTasks).set({ displayState: "failed" }).where(eq(studioTasks.id, task.id));
    expect((await makeDisplayCopy(task, deriver({ display: "display.glb" }).derive)).displayState).toBe("failed");
  });
});

describe("adoptFromCallback", () => {
  /** A task recorded as checking, charged 40 credits as lib/credits charges it. */
  const checking = async () => {
    const task = await newTask({ state: "checking", serviceTaskId: null, stateTimes: { checking: "2031-01-01T00:00:00.000Z" }, cost: 40 });
    await (await db()).insert(creditLedger).values({ userId: USER, kind: "charge", amount: -40, taskId: task.id });
    return task;
  };
  const ledgerOf = async (taskId: string) =>
    (await (await db()).select().from(creditLedger).where(eq(creditLedger.taskId, taskId))).map((e) => [e.kind, e.amount]).sort();

  it("takes a task id of 1 to 128 characters from a success envelope, keeping earlier state times", async () => {
    const task = await checking();
    const adopted = await adoptFromCallback(task, { code: 200, data: { task_id: "s".repeat(128) } });
    expect(adopted).toMatchObject({ state: "created", serviceTaskId: "s".repeat(128) });
    expect(Object.keys(adopted.stateTimes).sort()).toEqual(["checking", "created"]);
    expect(adopted.stateTimes.checking).toBe("2031-01-01T00:00:00.000Z");
    expect(await rowOf(task.id)).toMatchObject({ state: "created", serviceTaskId: "s".repeat(128) });
    expect(await ledgerOf(task.id)).toEqual([["charge", -40]]);
  });

  it("ignores bodies it cannot read as either answer", async () => {
    const task = await checking();
    for (const body of [
      null,
      42,
      { code: 200, data: { task_id: "s".repeat(129) } },
      { code: 200, data: { task_id: "" } },
      { code: 200, data: { task_id: 7 } },
      { code: 200, data: null },
      { code: 201, data: { task_id: "svc" } },
      { code: "50010001" },
      { code: 10030010, data: { task_id: "svc" } },
    ])
      expect(await adoptFromCallback(task, body)).toBe(task);
    expect(await rowOf(task.id)).toMatchObject({ state: "checking", serviceTaskId: null });
  });

  it("settles the task as failed with either failure code, keeping the checking time", async () => {
    for (const code of [50010001, 5001001]) {
      const task = await checking();
      const failed = await adoptFromCallback(task, { code, data: { task_id: "ignored" } });
      expect(failed).toMatchObject({ state: "failed", errorCode: code, serviceTaskId: null });
      expect(failed.stateTimes).toMatchObject({ checking: "2031-01-01T00:00:00.000Z", failed: expect.any(String) });
      // The service refunds failed tasks, and so does the studio's ledger.
      expect(await ledgerOf(task.id)).toEqual([
        ["charge", -40],
        ["refund", 40],
      ]);
    }
  });

  it("changes nothing for a task that is not waiting for its id", async () => {
    const created = await newTask({ state: "created", serviceTaskId: "svc-1" });
    expect(await adoptFromCallback(created, { code: 200, data: { task_id: "svc-2" } })).toBe(created);
    const odd = await newTask({ state: "checking", serviceTaskId: "svc-3" });
    expect(await adoptFromCallback(odd, { code: 50010001 })).toBe(odd);
    expect((await rowOf(odd.id))?.state).toBe("checking");
    // A row that moved on meanwhile: the stale copy passed in comes back unchanged.
    const moved = await checking();
    await (await db()).update(studioTasks).set({ state: "failed" }).where(eq(studioTasks.id, moved.id));
    expect(await adoptFromCallback(moved, { code: 200, data: { task_id: "svc-4" } })).toBe(moved);
    expect((await rowOf(moved.id))?.serviceTaskId).toBeNull();
    const refused = await checking();
    await (await db()).update(studioTasks).set({ state: "created", serviceTaskId: "svc-5" }).where(eq(studioTasks.id, refused.id));
    expect(await adoptFromCallback(refused, { code: 50010001 })).toBe(refused);
    expect(await ledgerOf(refused.id)).toEqual([["charge", -40]]);
  });
});
