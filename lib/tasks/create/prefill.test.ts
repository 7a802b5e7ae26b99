// What a create page starts with from ?again= and ?from= (PGlite in a temporary DATA_DIR).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { studioTasks, uploads, users, type StudioTask } from "@/lib/db/schema";
import { prefillFor, RUN_AGAIN_CHECKING, UPLOAD_GONE } from "./prefill";
import { tempDataDir } from "@/test/harness/temp-dir";

tempDataDir("prefill-test");

const USER = "pre-user";
const OTHER = "pre-other";
const CREATED = new Date("2031-05-06T07:08:09Z");
const LABEL = "2031-05-06 07:08 UTC";
const MISSING = "Some of that task's inputs are no longer available: add them again.";

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

async function upload(id: string, kind: "image" | "mesh", type: string, userId = USER) {
  await (await db()).insert(uploads).values({ id, userId, kind, type, filename: `${id}.${type}`, size: 10, file: `uploads/${id}` });
}
const info = (id: string, kind: "image" | "mesh", type: string) => ({ id, kind, type, filename: `${id}.${type}`, size: 10 });

beforeAll(async () => {
  await (await db()).insert(users).values([
    { id: USER, email: "pre@example.com" },
    { id: OTHER, email: "pre-other@example.com" },
  ]);
  await upload("img", "image", "png");
  await upload("front", "image", "png");
  await upload("left", "image", "webp");
  await upload("mesh", "mesh", "glb");
  await upload("their-img", "image", "png", OTHER);
  // Finished results to take as meshes or covers.
  await task("glb-result", {
    resultFile: "results/glb-result/result.glb",
    coverFile: "results/glb-result/cover.webp",
    inputs: { images: ["img"] },
  });
  await task("views-result", { resultFile: "results/v/result.glb", inputs: { multi_images: ["front", "left"], multi_images_bit: "1010" } });
  await task("mesh-made", { kind: "split", resultFile: "results/m/result.glb", inputs: { images: ["mesh"] } });
  await task("stl-result", { kind: "split", resultFile: "results/stl/result.stl" });
  await task("no-cover", { resultFile: "results/nc/result.glb" });
  await task("their-result", { userId: OTHER, resultFile: "results/t/result.glb", coverFile: "results/t/cover.webp" });
});
afterAll(async () => {
  await (await database()).close();
});

describe("?again=: an earlier task's options and inputs", () => {
  it("re-uses options, the image and the views placed by their bits", async () => {
    await task("again-views", {
      options: { model: "x3dv1.5" },
      inputs: { images: ["img"], multi_images: ["front", "left"], multi_images_bit: "1010" },
    });
    expect(await prefillFor(USER, { kind: "image-to-3d", again: "again-views" })).toEqual({
      options: { model: "x3dv1.5" },
      image: { source: "upload", upload: info("img", "image", "png") },
      views: { front: info("front", "image", "png"), left: info("left", "image", "webp") },
    });
  });

  it("places views by all four bits when none were recorded", async () => {
    await task("again-four", { inputs: { multi_images: ["front", "left"] } });
    expect((await prefillFor(USER, { kind: "image-to-3d", again: "again-four" })).views).toEqual({
      front: info("front", "image", "png"),
      back: info("left", "image", "webp"),
    });
  });

  it("says so when an input is gone, and keeps the rest", async () => {
    await task("again-gone", { options: { a: 1 }, inputs: { images: ["deleted"], multi_images: ["front", "their-img"] } });
    expect(await prefillFor(USER, { kind: "image-to-3d", again: "again-gone" })).toEqual({ options: { a: 1 }, notice: MISSING });
  });

  it("re-uses a mesh from an upload, a URL or an earlier result of an allowed type", async () => {
    const meshTypes = ["glb", "stl"] as const;
    await task("again-upload", { kind: "split", inputs: { mesh: { upload: "mesh" } } });
    expect(await prefillFor(USER, { kind: "split", again: "again-upload", meshTypes })).toEqual({
      options: {},
      mesh: { source: "upload", upload: info("mesh", "mesh", "glb") },
    });
    await task("again-url", { kind: "split", inputs: { mesh: { url: "https://h.test/m.glb", upload: "mesh" } } });
    expect((await prefillFor(USER, { kind: "split", again: "again-url", meshTypes })).mesh).toEqual({
      source: "url",
      url: "https://h.test/m.glb",
    });
    await task("again-task", { kind: "split", inputs: { mesh: { task: "stl-result" } } });
    expect((await prefillFor(USER, { kind: "split", again: "again-task", meshTypes })).mesh).toEqual({
      source: "task",
      task: { id: "stl-result", kind: "split", type: "stl", created: LABEL },
    });
    // Only GLB now: the STL result is not offered, and the form says an input is gone.
    expect(await prefillFor(USER, { kind: "split", again: "again-task", meshTypes: ["glb"] })).toEqual({ options: {}, notice: MISSING });
    await task("again-lost-mesh", { kind: "split", inputs: { mesh: { upload: "deleted" } } });
    expect(await prefillFor(USER, { kind: "split", again: "again-lost-mesh", meshTypes })).toEqual({ options: {}, notice: MISSING });
    await task("again-bad-mesh", { kind: "split", inputs: { mesh: "not a ref" } });
    expect(await prefillFor(USER, { kind: "split", again: "again-bad-mesh", meshTypes })).toEqual({ options: {}, notice: MISSING });
  });

  it("re-uses a depth image from a URL, an earlier cover or an upload", async () => {
    await task("again-depth-url", { kind: "depth", inputs: { image: { url: "https://h.test/p.png", task: "glb-result" } } });
    expect((await prefillFor(USER, { kind: "depth", again: "again-depth-url" })).image).toEqual({
      source: "url",
      url: "https://h.test/p.png",
    });
    await task("again-depth-task", { kind: "depth", inputs: { image: { task: "glb-result", upload: "img" } } });
    expect((await prefillFor(USER, { kind: "depth", again: "again-depth-task" })).image).toEqual({
      source: "task",
      task: { id: "glb-result", kind: "image-to-3d", created: LABEL },
    });
    await task("again-depth-upload", { kind: "depth", inputs: { image: { upload: "img" } } });
    expect((await prefillFor(USER, { kind: "depth", again: "again-depth-upload" })).image).toEqual({
      source: "upload",
      upload: info("img", "image", "png"),
    });
    await task("again-depth-nocover", { kind: "depth", inputs: { image: { task: "no-cover" } } });
    expect(await prefillFor(USER, { kind: "depth", again: "again-depth-nocover" })).toEqual({ options: {}, notice: MISSING });
    await task("again-depth-theirs", { kind: "depth", inputs: { image: { upload: "their-img" } } });
    expect(await prefillFor(USER, { kind: "depth", again: "again-depth-theirs" })).toEqual({ options: {}, notice: MISSING });
  });

  it("refuses another kind's task or someone else's, starting from the defaults", async () => {
    const refused = { notice: "That task cannot be run again here; the form starts from its defaults." };
    expect(await prefillFor(USER, { kind: "depth", again: "glb-result" })).toEqual(refused);
    expect(await prefillFor(USER, { kind: "image-to-3d", again: "their-result" })).toEqual(refused);
    expect(await prefillFor(USER, { kind: "image-to-3d", again: "" })).toEqual({});
  });

  it("warns that a task still checking may be charged twice, before any other notice", async () => {
    await task("again-checking", { state: "checking", serviceTaskId: null, inputs: { images: ["img"] } });
    expect((await prefillFor(USER, { kind: "image-to-3d", again: "again-checking" })).notice).toBe(RUN_AGAIN_CHECKING);
    await task("again-checking-gone", { state: "checking", serviceTaskId: null, inputs: { images: ["deleted"] } });
    expect((await prefillFor(USER, { kind: "image-to-3d", again: "again-checking-gone" })).notice).toBe(`${RUN_AGAIN_CHECKING} ${MISSING}`);
  });
});

describe("?from=: an earlier result as the input", () => {
  it("gives a depth form the result's cover, or says why not", async () => {
    expect(await prefillFor(USER, { kind: "depth", from: "glb-result" })).toEqual({
      image: { source: "task", task: { id: "glb-result", kind: "image-to-3d", created: LABEL } },
    });
    const refused = { notice: "That result's image cannot be used: it must be a finished task of yours." };
    expect(await prefillFor(USER, { kind: "depth", from: "no-cover" })).toEqual(refused);
    expect(await prefillFor(USER, { kind: "depth", from: "their-result", meshTypes: [] })).toEqual(refused);
  });

  it("gives a mesh form the result, naming the types it takes when it cannot", async () => {
    expect(await prefillFor(USER, { kind: "split", from: "stl-result", meshTypes: ["glb", "stl"] })).toEqual({
      mesh: { source: "task", task: { id: "stl-result", kind: "split", type: "stl", created: LABEL } },
    });
    expect(await prefillFor(USER, { kind: "split", from: "stl-result", meshTypes: ["glb", "obj"] })).toEqual({
      notice: "That result cannot be used here: it must be a finished task of yours with a GLB, OBJ result.",
    });
  });

  it("paints a result made from an image with that image (the front view of several)", async () => {
    const mesh = (id: string) => ({ source: "task", task: { id, kind: "image-to-3d", type: "glb", created: LABEL } });
    expect(await prefillFor(USER, { kind: "texture", from: "glb-result", meshTypes: ["glb"] })).toEqual({
      mesh: mesh("glb-result"),
      image: { source: "upload", upload: info("img", "image", "png") },
    });
    expect(await prefillFor(USER, { kind: "texture", from: "views-result", meshTypes: ["glb"] })).toEqual({
      mesh: mesh("views-result"),
      image: { source: "upload", upload: info("front", "image", "png") },
    });
    // A split task has no image: nothing to paint with. Nor does a result whose "image" is a mesh upload.
    expect(await prefillFor(USER, { kind: "texture", from: "no-cover", meshTypes: ["glb"] })).toEqual({ mesh: mesh("no-cover") });
    expect((await prefillFor(USER, { kind: "texture", from: "mesh-made", meshTypes: ["glb"] })).image).toBeUndefined();
    // Other forms take only the mesh.
    expect(await prefillFor(USER, { kind: "split", from: "glb-result", meshTypes: ["glb"] })).toEqual({ mesh: mesh("glb-result") });
  });

  it("keeps the image of ?again= when both are given", async () => {
    await task("again-texture", { kind: "texture", inputs: { images: ["left"], mesh: { upload: "mesh" } } });
    expect(await prefillFor(USER, { kind: "texture", again: "again-texture", from: "glb-result", meshTypes: ["glb"] })).toEqual({
      options: {},
      image: { source: "upload", upload: info("left", "image", "webp") },
      mesh: { source: "task", task: { id: "glb-result", kind: "image-to-3d", type: "glb", created: LABEL } },
    });
  });
});

describe("?upload=: one of the user's images (the home page's drop zone)", () => {
  it("starts the form with the user's image upload", async () => {
    expect(await prefillFor(USER, { kind: "image-to-3d", upload: "img" })).toEqual({
      image: { source: "upload", upload: info("img", "image", "png") },
    });
    expect(await prefillFor(USER, { kind: "depth", upload: "left" })).toEqual({
      image: { source: "upload", upload: info("left", "image", "webp") },
    });
  });

  it("refuses someone else's upload, a mesh or an unknown id alike, with a notice", async () => {
    for (const upload of ["their-img", "mesh", "no-such-upload"]) {
      expect(await prefillFor(USER, { kind: "image-to-3d", upload })).toEqual({ notice: UPLOAD_GONE });
    }
  });
});
