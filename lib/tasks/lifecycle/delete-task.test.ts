import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { database, db } from "@/lib/db";
import { shares, studioTasks, users } from "@/lib/db/schema";
import { storedPath, studioDir } from "@/lib/storage/storage.test-helpers";
import type { TaskResult } from "@/lib/x3d/schemas";
import { deleteTask, MARKER_MIN_AGE_MS, sweepDeletedTasks } from "./delete-task";
import { recordTask } from "../create/record.test-helpers";
import { refreshTask } from "./refresh";
import { oneQueryService } from "./refresh.test-helpers";
import { findSharedTask } from "../read/shared-task";
import { createShare } from "./sharing";
import { cachedTask, rememberTask } from "./task-cache";
import { DELETED_SOURCE, taskInputs } from "../read/shown-inputs";
import { tempDataDir } from "@/test/harness/temp-dir";

// A throwaway database and storage folder: serverEnv() reads DATA_DIR on first use.
tempDataDir("delete-test");

const OWNER = "owner-del";
const OTHER = "other-del";
const owner = { id: OWNER, admin: false };
let counter = 0;

const folder = (id: string) => storedPath(`results/${id}`);
const marker = (id: string) => path.join(studioDir(), "deleted", id);
const rowOf = async (id: string) => (await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id)))[0];

/** A finished task of `userId` with its four files stored, as a refresh and a display copy leave them. */
async function finishedTask(userId = OWNER, inputs: Record<string, unknown> = {}): Promise<string> {
  const id = `del-${++counter}`;
  await recordTask({
    id,
    userId,
    kind: "image-to-3d",
    serviceTaskId: `svc-${id}`,
    options: {},
    inputs,
    cost: 90,
    callbackSecretHash: null,
  });
  fs.mkdirSync(folder(id), { recursive: true });
  for (const name of ["result.glb", "cover.webp", "display.glb", "preview.glb"]) fs.writeFileSync(path.join(folder(id), name), name);
  await (
    await db()
  )
    .update(studioTasks)
    .set({
      state: "success",
      resultFile: `results/${id}/result.glb`,
      coverFile: `results/${id}/cover.webp`,
      displayFile: `results/${id}/display.glb`,
      previewFile: `results/${id}/preview.glb`,
      displayState: "ready",
    })
    .where(eq(studioTasks.id, id));
  return id;
}

beforeAll(async () => {
  await (await db()).insert(users).values([
    { id: OWNER, email: "owner-del@example.com" },
    { id: OTHER, email: "other-del@example.com" },
  ]);
});
afterAll(async () => {
  await (await database()).close();
});

describe("deleteTask", () => {
  it("removes the row, its share links, every stored file and its marker; the cache forgets it at once", async () => {
    const id = await finishedTask();
    const token = await createShare(OWNER, id);
    expect(token).toBeTruthy();
    const cached = await cachedTask(id); // now in the one-second cache, as a poll leaves it
    expect(cached?.id).toBe(id);

    expect((await deleteTask(owner, id))?.id).toBe(id);
    expect(await rowOf(id)).toBeUndefined();
    expect(await (await db()).select().from(shares).where(eq(shares.taskId, id))).toEqual([]);
    expect(await findSharedTask(token!)).toBeNull();
    expect(fs.existsSync(folder(id))).toBe(false);
    expect(fs.existsSync(marker(id))).toBe(false);
    expect(await cachedTask(id)).toBeNull();
    // A write that began before the delete and ends after it does not bring it back.
    rememberTask(cached!);
    expect(await cachedTask(id)).toBeNull();
    // Twice: nothing left to delete.
    expect(await deleteTask(owner, id)).toBeNull();
  });

  it("refuses another user's task (it stays, files and all); an admin deletes anyone's", async () => {
    const id = await finishedTask(OTHER);
    expect(await deleteTask(owner, id)).toBeNull();
    expect((await rowOf(id))?.id).toBe(id);
    expect(fs.existsSync(path.join(folder(id), "result.glb"))).toBe(true);
    expect(fs.existsSync(marker(id))).toBe(false);

    expect((await deleteTask({ id: OWNER, admin: true }, id))?.userId).toBe(OTHER);
    expect(await rowOf(id)).toBeUndefined();
    expect(fs.existsSync(folder(id))).toBe(false);
  });

  it("answers null for ids that cannot name a task, without touching the disk", async () => {
    for (const id of ["", "../results", "a/b", "x".repeat(101)]) expect(await deleteTask({ id: OWNER, admin: true }, id)).toBeNull();
  });

  it("a result copy under way when the task is deleted leaves no row and no files behind", async () => {
    const id = `del-${++counter}`;
    await recordTask({
      id,
      userId: OWNER,
      kind: "image-to-3d",
      serviceTaskId: `svc-${id}`,
      options: {},
      inputs: {},
      cost: 90,
      callbackSecretHash: null,
    });
    let release = () => {};
    const downloading = new Promise<void>((r) => (release = r));
    let fetched = 0;
    const slowFetch = (async (url: string | URL | Request) => {
      fetched++;
      await downloading;
      return new Response(String(url).includes("cover") ? "cover-bytes" : "glb-bytes");
    }) as typeof fetch;
    const answer: TaskResult = {
      task_id: `svc-${id}`,
      state: "success",
      url: "http://svc.test/files/x/result.glb",
      cover_url: "http://svc.test/files/x/cover.webp",
    };
    const refresh = refreshTask(
      id,
      { minIntervalMs: 0 },
      {
        service: oneQueryService(async () => answer),
        now: () => new Date(),
        fetch: slowFetch,
        deriveDisplay: () => Promise.reject(new Error("no display copy expected")),
      },
    );
    while (fetched === 0) await new Promise((r) => setTimeout(r, 10));

    expect(await deleteTask(owner, id)).not.toBeNull();
    const errors = vi.spyOn(console, "error");
    release(); // the download ends after the delete: its file has no folder left to land in
    await refresh;
    expect(errors).not.toHaveBeenCalled(); // nothing failed that anyone will see
    errors.mockRestore();
    expect(await rowOf(id)).toBeUndefined();
    expect(fs.existsSync(folder(id))).toBe(false);
    expect(await cachedTask(id)).toBeNull();
  });
  it("a display copy derived while the task is deleted is removed once its row turns out gone", async () => {
    const id = await finishedTask();
    await (await db()).update(studioTasks).set({ displayState: null, displayFile: null, previewFile: null }).where(eq(studioTasks.id, id));
    let release = () => {};
    const deriving = new Promise<void>((r) => (release = r));
    let started = false;
    const refresh = refreshTask(
      id,
      { minIntervalMs: 0 },
      {
        service: oneQueryService(() => Promise.reject(new Error("no query expected"))),
        now: () => new Date(),
        fetch: (() => Promise.reject(new Error("no fetch expected"))) as typeof fetch,
        deriveDisplay: async (_input, _format, outDir) => {
          started = true;
          await deriving;
          fs.mkdirSync(outDir, { recursive: true });
          fs.writeFileSync(path.join(outDir, "display.glb"), "late display copy");
          return { display: { file: "display.glb" }, preview: null };
        },
      },
    );
    while (!started) await new Promise((r) => setTimeout(r, 10));

    expect(await deleteTask(owner, id)).not.toBeNull();
    expect(fs.existsSync(folder(id))).toBe(false);
    release();
    await refresh;
    expect(await rowOf(id)).toBeUndefined();
    expect(fs.existsSync(folder(id))).toBe(false);
  });
});

describe("sweepDeletedTasks", () => {
  it("retries the files of a deleted task whose removal failed; a marker whose task lives on is dropped, a young one left", async () => {
    const later = Date.now() + MARKER_MIN_AGE_MS + 1000;
    // A removal that failed: row gone, folder and marker left.
    const failed = await finishedTask();
    await (await db()).delete(studioTasks).where(eq(studioTasks.id, failed));
    fs.mkdirSync(path.dirname(marker(failed)), { recursive: true });
    fs.writeFileSync(marker(failed), "");
    // A delete whose transaction did not commit: the task and its files stay.
    const kept = await finishedTask();
    fs.writeFileSync(marker(kept), "");

    expect(await sweepDeletedTasks(Date.now())).toBe(0); // too young yet: maybe a delete under way
    expect(fs.existsSync(folder(failed))).toBe(true);

    expect(await sweepDeletedTasks(later)).toBe(1);
    expect(fs.existsSync(folder(failed))).toBe(false);
    expect(fs.existsSync(marker(failed))).toBe(false);
    expect(fs.existsSync(path.join(folder(kept), "result.glb"))).toBe(true);
    expect(fs.existsSync(marker(kept))).toBe(false);
    expect(await sweepDeletedTasks(later)).toBe(0);
  });
});

describe("a task made from a deleted one", () => {
  it("still lists its input, named as deleted and linking nowhere", async () => {
    const source = await finishedTask();
    const split = await finishedTask(OWNER, { mesh: { task: source } });
    const before = await taskInputs((await rowOf(split))!, { owner: split });
    expect(before).toMatchObject([{ role: "mesh", taskId: source, imageUrl: `/api/files/${split}/inputs/0` }]);

    await deleteTask(owner, source);
    const after = await taskInputs((await rowOf(split))!, { owner: split });
    expect(after).toEqual([{ label: "mesh", role: "mesh", imageUrl: null, name: DELETED_SOURCE, taskId: null }]);
  });
});
