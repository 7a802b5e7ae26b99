// Two of a user's tasks side by side (PGlite in a temporary DATA_DIR).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { studioTasks, users, type StudioTask } from "@/lib/db/schema";
import { compareTasks } from "./compare";
import { tempDataDir } from "@/test/harness/temp-dir";

const dataDir = tempDataDir("compare-test");

const USER = "cmp-user";
const OTHER = "cmp-other";
const CREATED = new Date("2031-05-06T07:08:09Z");

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
    createdAt: CREATED,
    ...values,
  });
}

function store(relative: string, bytes: number) {
  const full = path.join(dataDir, "studio", relative);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, Buffer.alloc(bytes));
}

beforeAll(async () => {
  await (await db()).insert(users).values([
    { id: USER, email: "cmp@example.com" },
    { id: OTHER, email: "cmp-other@example.com" },
  ]);
  store("results/a/result.glb", 1234);
  await task("a", {
    resultFile: "results/a/result.glb",
    displayState: "ready",
    displayFile: "results/a/display.glb",
    options: { model: "x3dv3.0", face: 2000, callback_url: "http://studio/cb/secret" },
  });
  await task("b", { kind: "split", resultFile: "results/b/result.obj", options: { model: "x3dv3.0", face: 8000, part: "a" } });
  await task("depth", { kind: "depth", resultFile: "results/depth/result.png" });
  await task("odd", { resultFile: "results/odd/result.bin" });
  await task("running", { state: "processing" });
  await task("stored-nowhere", { resultFile: null });
  await task("no-extension", { resultFile: "results/no-extension/result" });
  await task("theirs", { userId: OTHER, resultFile: "results/theirs/result.glb" });
});
afterAll(async () => {
  await (await database()).close();
});

describe("compareTasks", () => {
  it("gives each side's viewer file, stored format and size, and the options that differ", async () => {
    expect(await compareTasks(USER, "a", "b")).toEqual({
      status: "ok",
      a: {
        id: "a",
        kind: "image-to-3d",
        createdAt: CREATED.toISOString(),
        viewUrl: "/api/files/a/display",
        viewFormat: "glb",
        format: "glb",
        fileSize: 1234,
        options: { model: "x3dv3.0", face: 2000 },
      },
      b: {
        id: "b",
        kind: "split",
        createdAt: CREATED.toISOString(),
        viewUrl: "/api/files/b/result",
        viewFormat: "obj",
        format: "obj",
        fileSize: null,
        options: { model: "x3dv3.0", face: 8000, part: "a" },
      },
      differing: ["face", "part"],
    });
  });

  it("is not found when either task is not the user's or does not exist", async () => {
    expect(await compareTasks(USER, "a", "theirs")).toEqual({ status: "not-found" });
    expect(await compareTasks(USER, "nothing", "a")).toEqual({ status: "not-found" });
    expect(await compareTasks(OTHER, "a", "theirs")).toEqual({ status: "not-found" });
  });

  it("refuses unfinished tasks and results that are not models, saying which", async () => {
    const unfinished = { status: "not-comparable", reason: "Both tasks must be finished with their result stored." };
    expect(await compareTasks(USER, "running", "a")).toEqual(unfinished);
    expect(await compareTasks(USER, "a", "stored-nowhere")).toEqual(unfinished);
    // A stored file of no known format is not a result that can be shown.
    expect(await compareTasks(USER, "no-extension", "a")).toEqual(unfinished);
    expect(await compareTasks(USER, "depth", "a")).toEqual({
      status: "not-comparable",
      reason: "A PNG result cannot be compared in 3D.",
    });
    expect(await compareTasks(USER, "a", "odd")).toEqual({ status: "not-comparable", reason: "A BIN result cannot be compared in 3D." });
  });
});
