import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { shares, studioTasks, users } from "@/lib/db/schema";
import { findUserTask, HISTORY_PAGE_SIZE, listUserTasks, parseHistoryFilter } from "./queries";
import { sharedTaskView, taskView } from "../model/task-view";
import { recordTask } from "../create/record.test-helpers";
import { activeShare, findSharedTask } from "./shared-task";
import { createShare, revokeShares } from "../lifecycle/sharing";
import { tempDataDir } from "@/test/harness/temp-dir";

tempDataDir("share-test");

const OWNER = "owner-1";
const OTHER = "other-1";

async function finishedTask(id: string, userId = OWNER) {
  await recordTask({
    id,
    userId,
    kind: "image-to-3d",
    serviceTaskId: `svc-${id}`,
    options: { model: "x3dv3.0", callback_url: "http://studio/api/callbacks/x/secret", mesh_url: "https://owner.example/m.glb" },
    inputs: {},
    cost: 90,
    callbackSecretHash: null,
  });
  await (
    await db()
  )
    .update(studioTasks)
    .set({ state: "success", resultFile: `results/${id}/result.glb`, coverFile: `results/${id}/cover.webp` })
    .where(eq(studioTasks.id, id));
}

beforeAll(async () => {
  await (await db()).insert(users).values([
    { id: OWNER, email: "owner@example.com", name: "Owner Name" },
    { id: OTHER, email: "other@example.com" },
  ]);
});
afterAll(async () => {
  await (await database()).close();
});

describe("share links", () => {
  it("are made by the owner of a finished task, reused, and revoked", async () => {
    await finishedTask("shared-1");
    expect(await createShare(OTHER, "shared-1")).toBeNull();
    const token = await createShare(OWNER, "shared-1");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await createShare(OWNER, "shared-1")).toBe(token);
    expect(await activeShare(OWNER, "shared-1")).toBe(token);
    expect((await findSharedTask(token!))?.id).toBe("shared-1");

    expect(await revokeShares(OTHER, "shared-1")).toBe(false);
    expect((await findSharedTask(token!))?.id).toBe("shared-1");
    expect(await revokeShares(OWNER, "shared-1")).toBe(true);
    expect(await findSharedTask(token!)).toBeNull();
    expect(await activeShare(OWNER, "shared-1")).toBeNull();
    const again = await createShare(OWNER, "shared-1");
    expect(again).not.toBe(token);
  });

  it("are refused for unfinished tasks and unknown tokens", async () => {
    await recordTask({
      id: "running-1",
      userId: OWNER,
      kind: "split",
      serviceTaskId: "svc-r",
      options: {},
      inputs: {},
      cost: 20,
      callbackSecretHash: null,
    });
    expect(await createShare(OWNER, "running-1")).toBeNull();
    expect(await findSharedTask("x".repeat(43))).toBeNull();
    expect(await findSharedTask("not a token")).toBeNull();
  });

  it("stop working when the task is no longer shareable, and for a share its maker does not own", async () => {
    await finishedTask("shared-3");
    const token = (await createShare(OWNER, "shared-3"))!;
    expect((await findSharedTask(token))?.id).toBe("shared-3");
    // Its result no longer kept (deleted, or the row reset): the link answers nothing.
    await (await db()).update(studioTasks).set({ resultFile: null }).where(eq(studioTasks.id, "shared-3"));
    expect(await findSharedTask(token)).toBeNull();
    await (
      await db()
    )
      .update(studioTasks)
      .set({ resultFile: "results/shared-3/result.glb", state: "failed" })
      .where(eq(studioTasks.id, "shared-3"));
    expect(await findSharedTask(token)).toBeNull();
    // A share row whose maker is not the task's owner (written by hand: createShare refuses it).
    await finishedTask("shared-4");
    const forged = "f".repeat(43);
    await (await db()).insert(shares).values({ token: forged, taskId: "shared-4", userId: OTHER });
    expect(await findSharedTask(forged)).toBeNull();
    // A live token with a character more or less, or one outside base64url, is not the token.
    const live = (await createShare(OWNER, "shared-4"))!;
    for (const near of [`${live}x`, live.slice(1), `${live.slice(0, 42)}+`, `${live.slice(0, 42)}=`])
      expect(await findSharedTask(near), near).toBeNull();
    expect((await findSharedTask(live))?.id).toBe("shared-4");
  });

  it("show nothing about the owner, the callback or source URLs", async () => {
    await finishedTask("shared-2");
    const task = (await (await db()).select().from(studioTasks).where(eq(studioTasks.id, "shared-2")))[0]!;
    const view = sharedTaskView(task, "t".repeat(43));
    const text = JSON.stringify(view);
    for (const secret of [OWNER, "owner@example.com", "Owner Name", "shared-2", "callbacks", "owner.example"])
      expect(text).not.toContain(secret);
    expect(view.result).toEqual({
      format: "glb",
      url: `/api/share/${"t".repeat(43)}/files/result`,
      downloadUrl: `/api/share/${"t".repeat(43)}/files/result?download=1`,
    });
    // The owner sees their source URL, never the callback.
    expect(taskView(task).options).toEqual({ model: "x3dv3.0", mesh_url: "https://owner.example/m.glb" });
  });
});

describe("file access", () => {
  it("finds a task for its owner only: another user's task is the same as none", async () => {
    await finishedTask("owned-1");
    expect((await findUserTask(OWNER, "owned-1"))?.id).toBe("owned-1");
    expect(await findUserTask(OTHER, "owned-1")).toBeNull();
    expect(await findUserTask(OWNER, "no-such-task")).toBeNull();
  });
});

describe("history", () => {
  it("pages the user's tasks newest first and filters by kind and state", async () => {
    const user = "pager";
    await (await db()).insert(users).values({ id: user, email: "pager@example.com" });
    for (let i = 0; i < HISTORY_PAGE_SIZE + 3; i++) {
      await recordTask({
        id: `p-${i}`,
        userId: user,
        kind: i % 2 ? "depth" : "split",
        serviceTaskId: `s-${i}`,
        options: {},
        inputs: {},
        cost: 20,
        callbackSecretHash: null,
      });
      await (
        await db()
      )
        .update(studioTasks)
        .set({ createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)) })
        .where(eq(studioTasks.id, `p-${i}`));
    }
    const first = await listUserTasks(user, parseHistoryFilter({}));
    expect(first.tasks).toHaveLength(HISTORY_PAGE_SIZE);
    expect(first.tasks[0]?.id).toBe(`p-${HISTORY_PAGE_SIZE + 2}`);
    expect(first.hasNext).toBe(true);
    const second = await listUserTasks(user, parseHistoryFilter({ page: "2" }));
    expect(second.tasks.map((t) => t.id)).toEqual(["p-2", "p-1", "p-0"]);
    expect(second.hasNext).toBe(false);
    const depth = await listUserTasks(user, parseHistoryFilter({ kind: "depth" }));
    expect(depth.tasks.every((t) => t.kind === "depth")).toBe(true);
    expect(depth.tasks).toHaveLength(11);
    expect((await listUserTasks(user, parseHistoryFilter({ state: "failed" }))).tasks).toHaveLength(0);
    expect((await listUserTasks(OTHER, parseHistoryFilter({}))).tasks).toHaveLength(0);
  });

  it("ignores filters it does not know", () => {
    expect(parseHistoryFilter({ kind: "bogus", state: ["success", "failed"], page: "-3" })).toEqual({
      kind: undefined,
      state: "success",
      page: 1,
    });
  });
});
