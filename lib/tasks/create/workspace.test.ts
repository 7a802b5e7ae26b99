// What a create page opens with: the strip's first page, the task shown (?task=) and the form
// filled from it or from ?again= / ?upload= (PGlite in a temporary DATA_DIR).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { studioTasks, uploads, users, type StudioTask } from "@/lib/db/schema";
import { DEFAULT_MODEL } from "@/lib/x3d/options";
import { tempDataDir } from "@/test/harness/temp-dir";
import { formStart, STRIP_PAGE_SIZE, stripPage, workspaceStart } from "./workspace";

tempDataDir("workspace-test");

const USER = "ws-user";
const OTHER = "ws-other";
const IMAGE_TASKS = STRIP_PAGE_SIZE + 2;
/** Image task n (0 the oldest), a minute apart. */
const imageId = (n: number) => `img-${String(n).padStart(2, "0")}`;
const at = (n: number) => new Date(Date.UTC(2031, 0, 1, 12, n));

async function task(id: string, values: Partial<StudioTask> = {}) {
  await (await db()).insert(studioTasks).values({
    id,
    userId: USER,
    kind: "image-to-3d",
    serviceTaskId: `svc-${id}`,
    options: {},
    inputs: {},
    state: "success",
    stateTimes: {},
    createdAt: at(0),
    ...values,
  });
}

beforeAll(async () => {
  await (await db()).insert(users).values([
    { id: USER, email: "ws@example.com" },
    { id: OTHER, email: "ws-other@example.com" },
  ]);
  await (await db()).insert(uploads).values([
    { id: "photo", userId: USER, kind: "image", type: "png", filename: "photo.png", size: 10, file: "uploads/photo" },
    { id: "dropped", userId: USER, kind: "image", type: "webp", filename: "dropped.webp", size: 10, file: "uploads/dropped" },
  ]);
  for (let n = 0; n < IMAGE_TASKS; n++) {
    await task(imageId(n), {
      createdAt: at(n),
      options: { model: "x3dv1.5", resolution: "512", face: 100_000 + n * 1000 },
      inputs: { images: ["photo"] },
    });
  }
  await task("split-1", { kind: "split", createdAt: at(50) });
  await task("theirs", { userId: OTHER, createdAt: at(60), options: { face: 999_000 } });
});
afterAll(async () => {
  await (await database()).close();
});

const ids = (tasks: { id: string }[]) => tasks.map((t) => t.id);

describe("stripPage", () => {
  it("lists the user's tasks of one kind, newest first, 30 a page, as the status route shows them", async () => {
    const first = await stripPage(USER, "image-to-3d", 1);
    expect(first.hasMore).toBe(true);
    expect(ids(first.tasks)).toEqual(Array.from({ length: STRIP_PAGE_SIZE }, (_, i) => imageId(IMAGE_TASKS - 1 - i)));
    expect(first.tasks[0]).toMatchObject({ kind: "image-to-3d", state: "success", settled: false, cover: { url: null } });
    const second = await stripPage(USER, "image-to-3d", 2);
    expect(second).toMatchObject({ hasMore: false });
    expect(ids(second.tasks)).toEqual([imageId(1), imageId(0)]);
    expect(ids((await stripPage(USER, "split", 1)).tasks)).toEqual(["split-1"]);
    expect((await stripPage(OTHER, "split", 1)).tasks).toEqual([]);
  });
});

describe("workspaceStart", () => {
  it("opens with the form at its defaults and nothing shown", async () => {
    const start = await workspaceStart(USER, "image-to-3d", {});
    expect(start).toMatchObject({ formKey: "new", selected: null, hasMore: true });
    expect(start.tasks).toHaveLength(STRIP_PAGE_SIZE);
    expect(start.form).toMatchObject({ kind: "image-to-3d", initial: { options: { model: DEFAULT_MODEL } } });
    expect(start.form.initial).not.toHaveProperty("image", expect.anything());
  });

  it("shows ?task= and fills the form with its settings and image, listing it after the page when it is older", async () => {
    const oldest = imageId(0);
    const start = await workspaceStart(USER, "image-to-3d", { task: oldest });
    expect(start).toMatchObject({ selected: oldest, formKey: oldest });
    expect(ids(start.tasks).at(-1)).toBe(oldest);
    expect(start.tasks).toHaveLength(STRIP_PAGE_SIZE + 1);
    expect(start.form).toMatchObject({
      kind: "image-to-3d",
      initial: { options: { model: "x3dv1.5", resolution: "512", face: 100_000 }, image: { id: "photo", filename: "photo.png" } },
    });
    // A task on the first page is not listed twice.
    const newest = await workspaceStart(USER, "image-to-3d", { task: imageId(IMAGE_TASKS - 1) });
    expect(newest.tasks).toHaveLength(STRIP_PAGE_SIZE);
  });

  it("fills the form from ?again= or ?upload= when the address says so, still showing ?task=", async () => {
    const shown = imageId(IMAGE_TASKS - 1);
    const again = await workspaceStart(USER, "image-to-3d", { task: shown, again: imageId(5) });
    expect(again).toMatchObject({ selected: shown, formKey: imageId(5), form: { initial: { options: { face: 105_000 } } } });
    const dropped = await workspaceStart(USER, "image-to-3d", { task: shown, upload: "dropped" });
    expect(dropped).toMatchObject({ selected: shown, formKey: "new", form: { initial: { image: { id: "dropped", type: "webp" } } } });
    expect(dropped.form.initial.options).toMatchObject({ model: DEFAULT_MODEL });
  });

  it("shows nothing for another kind's task or someone else's, and fills nothing from them", async () => {
    for (const task of ["split-1", "theirs", "no-such-task"]) {
      const start = await workspaceStart(USER, "image-to-3d", { task });
      expect(start).toMatchObject({ selected: null, formKey: "new", form: { notice: undefined } });
      expect(ids(start.tasks)).not.toContain(task);
    }
  });
});

describe("formStart", () => {
  it("fills a form of the task's kind from it (the prefill route), saying what could not be re-used", async () => {
    expect(await formStart(USER, "split", { again: "split-1" })).toMatchObject({
      kind: "split",
      initial: { options: { model: "character" } },
    });
    expect(await formStart(USER, "image-to-3d", { again: "theirs" })).toMatchObject({
      notice: "That task cannot be run again here; the form starts from its defaults.",
    });
  });

  it("gives ?from= no meaning on the image form, which takes no earlier result", async () => {
    expect(await formStart(USER, "image-to-3d", { from: imageId(3) })).toMatchObject({ kind: "image-to-3d", notice: undefined });
  });
});
