// A task's inputs: what the service gets from uploads and earlier results, and how the task
// and share pages show and serve them (PGlite and files in a temporary DATA_DIR).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { studioTasks, uploads, users, type StudioTask } from "@/lib/db/schema";
import { ERRORS } from "@/lib/x3d/errors";
import type { X3dFileData } from "@/lib/x3d/schemas";
import { coverImageFile, imageFiles, meshInput, meshResults, usableCover, usableResult } from "../create/resolve-inputs";
import { resultType } from "../model/results";
import { DELETED_SOURCE, serveInputImage, taskInputs } from "./shown-inputs";
import { tempDataDir } from "@/test/harness/temp-dir";

const dataDir = tempDataDir("task-inputs-test");

const USER = "in-user";
const OTHER = "in-other";
const CHAIR = fs.readFileSync(path.resolve(import.meta.dirname, "../../../test/fixtures/chair.png"));
const GLB = new Uint8Array([...Buffer.from("glTF"), 2, 0, 0, 0, 20, 0, 0, 0, ...new Array(12).fill(0)]);
const STL = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
const GONE_IMAGE = "That image is no longer available. Upload it again.";
const GONE_MESH = "That model is no longer available. Upload it again.";
const NO_COVER = "That result's image is not available: pick another image.";
/** The bytes of a service file's data: the studio hands the service Blobs backed by storage. */
async function bytesOf(data: X3dFileData | undefined): Promise<Buffer> {
  if (!(data instanceof Blob)) throw new Error("expected a Blob");
  return Buffer.from(await data.arrayBuffer());
}
const GET = new Request("http://studio.test/api/files/x/inputs/0");
const SERVE = { download: true, cacheControl: "private, no-cache" };

function store(relative: string, bytes: Uint8Array | string) {
  const full = path.join(dataDir, "studio", relative);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, bytes);
}

async function upload(id: string, kind: "image" | "mesh", type: string, filename: string, bytes?: Uint8Array | string, userId = USER) {
  if (bytes !== undefined) store(`uploads/${id}`, bytes);
  await (await db()).insert(uploads).values({ id, userId, kind, type, filename, size: 10, file: `uploads/${id}` });
}

let clock = Date.parse("2031-01-01T00:00:00Z");
async function task(id: string, values: Partial<StudioTask> = {}): Promise<StudioTask> {
  const [row] = await (
    await db()
  )
    .insert(studioTasks)
    .values({
      id,
      userId: USER,
      kind: "image-to-3d",
      serviceTaskId: `svc-${id}`,
      options: {},
      inputs: {},
      state: "success",
      stateTimes: {},
      createdAt: new Date((clock += 60_000)),
      ...values,
    })
    .returning();
  if (!row) throw new Error("no row");
  return row;
}

beforeAll(async () => {
  await (await db()).insert(users).values([
    { id: USER, email: "in@example.com" },
    { id: OTHER, email: "in-other@example.com" },
  ]);
  await upload("photo", "image", "png", "my chair (1).PNG", CHAIR);
  await upload("jpeg", "image", "jpeg", ".jpg", CHAIR);
  await upload("long", "image", "webp", `${"n".repeat(80)}.webp`, CHAIR);
  await upload("unstored", "image", "png", "gone.png");
  await upload("model", "mesh", "glb", "model.glb", GLB);
  await upload("stl", "mesh", "stl", "part.stl", STL);
  await upload("their-photo", "image", "png", "theirs.png", CHAIR, OTHER);
  store("results/glb/result.glb", GLB);
  store("results/glb/cover.png", CHAIR);
  store("results/stl/result.stl", STL);
  store("results/bad-cover/cover.png", "not an image");
});
afterAll(async () => {
  await (await database()).close();
});

describe("imageFiles", () => {
  it("gives the user's images in order, named by their stem and sniffed type", async () => {
    const files = await imageFiles(USER, ["jpeg", "photo", "long"], "images");
    if (!files.ok) throw new Error(JSON.stringify(files.fields));
    expect(files.value.map((f) => [f.name, f.type])).toEqual([
      ["input.jpeg", "image/jpeg"],
      ["my_chair_1_.png", "image/png"],
      [`${"n".repeat(60)}.webp`, "image/webp"],
    ]);
    expect((await bytesOf(files.value[1]?.data)).equals(CHAIR)).toBe(true);
  });

  it("answers on the given field when an upload is someone else's, not an image, or not stored", async () => {
    for (const id of ["their-photo", "model", "unstored", "nothing"])
      expect(await imageFiles(USER, ["photo", id], "view_front")).toEqual({ ok: false, fields: { view_front: GONE_IMAGE } });
  });
});

describe("meshInput", () => {
  const ALL = ["glb", "stl", "obj"] as const;

  it("passes a URL on and records it", async () => {
    expect(await meshInput(USER, { source: "url", url: "https://h.test/m.glb" }, ALL)).toEqual({
      ok: true,
      value: { mesh_url: "https://h.test/m.glb", record: { url: "https://h.test/m.glb" } },
    });
  });

  it("sends the user's mesh upload of an allowed type", async () => {
    const input = await meshInput(USER, { source: "upload", upload: "stl" }, ALL);
    if (!input.ok) throw new Error(JSON.stringify(input.fields));
    expect(input.value.record).toEqual({ upload: "stl" });
    expect([input.value.mesh?.name, input.value.mesh?.type]).toEqual(["part.stl", "model/stl"]);
    expect((await bytesOf(input.value.mesh?.data)).toString()).toBe(STL);
  });

  it("refuses an upload that is gone, an image, or of a type the form does not take", async () => {
    expect(await meshInput(USER, { source: "upload", upload: "photo" }, ALL)).toEqual({ ok: false, fields: { mesh: GONE_MESH } });
    expect(await meshInput(OTHER, { source: "upload", upload: "model" }, ALL)).toEqual({ ok: false, fields: { mesh: GONE_MESH } });
    expect(await meshInput(USER, { source: "upload", upload: "stl" }, ["glb"])).toEqual({
      ok: false,
      fields: { mesh: ERRORS[10031016].user },
    });
    expect(await meshInput(USER, { source: "upload", upload: "stl" }, ["glb", "obj"])).toEqual({
      ok: false,
      fields: { mesh: ERRORS[10030005].user },
    });
  });

  it("sends an earlier result by its sniffed type, and refuses one unfinished, missing or of the wrong type", async () => {
    await task("r-glb", { resultFile: "results/glb/result.glb" });
    await task("r-stl", { kind: "split", resultFile: "results/stl/result.stl" });
    await task("r-running", { state: "processing" });
    await task("r-missing", { resultFile: "results/missing/result.glb" });
    const input = await meshInput(USER, { source: "task", task: "r-glb" }, ["glb"]);
    if (!input.ok) throw new Error(JSON.stringify(input.fields));
    expect(input.value.record).toEqual({ task: "r-glb" });
    expect([input.value.mesh?.name, input.value.mesh?.type, (await bytesOf(input.value.mesh?.data)).length]).toEqual([
      "result.glb",
      "model/gltf-binary",
      GLB.length,
    ]);
    const unavailable = { ok: false, fields: { mesh: "That result is not available: pick another one, or upload a model." } };
    expect(await meshInput(USER, { source: "task", task: "r-running" }, ALL)).toEqual(unavailable);
    expect(await meshInput(OTHER, { source: "task", task: "r-glb" }, ALL)).toEqual(unavailable);
    expect(await meshInput(USER, { source: "task", task: "r-missing" }, ALL)).toEqual({
      ok: false,
      fields: { mesh: "That result's file is missing: pick another one, or upload a model." },
    });
    expect(await meshInput(USER, { source: "task", task: "r-stl" }, ["glb"])).toEqual({
      ok: false,
      fields: { mesh: ERRORS[10031016].user },
    });
  });
});

describe("earlier results and covers", () => {
  it("read a result's type from its file, else from the format it asked for", () => {
    expect(resultType({ kind: "split", resultFile: "results/x/result.STL", options: { format: 2 } })).toBe("stl");
    expect(resultType({ kind: "split", resultFile: null, options: { format: 2 } })).toBe("glb");
    // The same format number means another type for each kind.
    expect(resultType({ kind: "depth", resultFile: null, options: { format: 2 } })).toBe("png");
    expect(resultType({ kind: "segmentation", resultFile: "", options: { format: "1" } })).toBe("obj");
    expect(resultType({ kind: "split", resultFile: "results/x/result", options: {} })).toBeUndefined();
  });

  it("offer the user's finished results of the allowed types, newest first, up to the limit", async () => {
    const user = "lister";
    await (await db()).insert(users).values({ id: user, email: "lister@example.com" });
    await task("l1", { userId: user, resultFile: "results/l1/result.glb" });
    await task("l2", { userId: user, kind: "split", resultFile: "results/l2/result.stl" });
    await task("l3", { userId: user, resultFile: "results/l3/result.glb" });
    await task("l4", { userId: user, state: "failed", resultFile: "results/l4/result.glb" });
    await task("l5", { userId: user, state: "success" });
    expect((await meshResults(user, ["glb"])).map((o) => o.id)).toEqual(["l3", "l1"]);
    expect((await meshResults(user, ["glb", "stl"])).map((o) => o.id)).toEqual(["l3", "l2", "l1"]);
    expect((await meshResults(user, ["glb", "stl"], 2)).map((o) => o.id)).toEqual(["l3", "l2"]);
    expect(await meshResults(user, ["obj"])).toEqual([]);
    const [l2] = await meshResults(user, ["stl"]);
    expect(l2).toEqual({ id: "l2", kind: "split", type: "stl", created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/) });
    expect(await usableResult(user, "l2", ["stl"])).toEqual(l2);
    expect(await usableResult(user, "l2", ["glb"])).toBeUndefined();
    expect(await usableResult(user, "l4", ["glb"])).toBeUndefined();
    expect(await usableResult(USER, "l2", ["stl"])).toBeUndefined();
  });

  it("offer a finished task's stored cover, and send it as an image file", async () => {
    const created = new Date("2031-07-08T09:10:11Z");
    await task("c-ok", { coverFile: "results/glb/cover.png", createdAt: created });
    await task("c-none", {});
    await task("c-running", { state: "processing", coverFile: "results/glb/cover.png" });
    await task("c-bad", { coverFile: "results/bad-cover/cover.png" });
    await task("c-gone", { coverFile: "results/gone/cover.png" });
    expect(await usableCover(USER, "c-ok")).toEqual({ id: "c-ok", kind: "image-to-3d", created: "2031-07-08 09:10 UTC" });
    expect(await usableCover(USER, "c-none")).toBeUndefined();
    expect(await usableCover(USER, "c-running")).toBeUndefined();
    expect(await usableCover(OTHER, "c-ok")).toBeUndefined();
    const file = await coverImageFile(USER, "c-ok", "image");
    if (!file.ok) throw new Error(JSON.stringify(file.fields));
    expect([file.value.name, file.value.type, (await bytesOf(file.value.data)).length]).toEqual(["cover.png", "image/png", CHAIR.length]);
    for (const [user, id] of [
      [USER, "c-none"],
      [USER, "c-running"],
      [USER, "c-bad"],
      [USER, "c-gone"],
      [OTHER, "c-ok"],
    ] as const)
      expect(await coverImageFile(user, id, "image")).toEqual({ ok: false, fields: { image: NO_COVER } });
  });
});

describe("taskInputs and serveInputImage", () => {
  it("show each input with its image link and name, and the owner the source task and URL", async () => {
    await task("src", { kind: "split", resultFile: "results/stl/result.stl", coverFile: "results/glb/cover.png" });
    const t = await task("with-inputs", {
      kind: "texture",
      inputs: { images: ["photo", "unstored", "model"], image: { url: "https://o.test/p.png" }, mesh: { task: "src" } },
    });
    expect(await taskInputs(t, { owner: "with-inputs" })).toEqual([
      { label: "image", role: "image", imageUrl: "/api/files/with-inputs/inputs/0", name: "my chair (1).PNG", taskId: null },
      { label: "image", role: "image", imageUrl: null, name: "gone.png", taskId: null },
      { label: "image", role: "image", imageUrl: null, name: null, taskId: null },
      { label: "image", role: "image", imageUrl: null, name: "https://o.test/p.png", taskId: null },
      {
        label: "mesh to texture",
        role: "mesh",
        imageUrl: "/api/files/with-inputs/inputs/4",
        name: "an earlier split result (STL)",
        taskId: "src",
      },
    ]);
    const shared = await taskInputs(t, { share: "k" });
    expect(shared[3]).toMatchObject({ name: "a file from a URL", taskId: null });
    expect(shared[4]).toMatchObject({ imageUrl: "/api/share/k/files/inputs/4", taskId: null });
  });

  it("name a result without a type, a deleted source, and a mesh upload (which has no image)", async () => {
    await task("src-untyped", { kind: "split", resultFile: "results/u/result" });
    const t = await task("more-inputs", {
      kind: "split",
      inputs: { images: ["their-photo"], mesh: { upload: "model" }, image: { task: "gone" } },
    });
    expect(await taskInputs(t, { owner: t.id })).toEqual([
      { label: "image", role: "image", imageUrl: null, name: null, taskId: null },
      { label: "image", role: "image", imageUrl: null, name: DELETED_SOURCE, taskId: null },
      { label: "mesh", role: "mesh", imageUrl: null, name: "model.glb", taskId: null },
    ]);
    const u = await task("untyped-input", { kind: "split", inputs: { mesh: { task: "src-untyped" } } });
    expect((await taskInputs(u, { owner: u.id }))[0]).toMatchObject({
      name: "an earlier split result",
      imageUrl: null,
      taskId: "src-untyped",
    });
  });

  it("serve an input's image by its number, named by kind and label", async () => {
    const t = await task("serve", {
      kind: "image-to-3d",
      inputs: { multi_images: ["photo", "jpeg"], multi_images_bit: "1010", mesh: { upload: "model" } },
    });
    const front = await serveInputImage(GET, t, "0", SERVE);
    expect(front.status).toBe(200);
    expect(front.headers.get("content-type")).toBe("image/png");
    expect(front.headers.get("content-disposition")).toBe('attachment; filename="image-to-3d-input-front.png"');
    expect(Buffer.from(await front.arrayBuffer()).equals(CHAIR)).toBe(true);
    const left = await serveInputImage(GET, t, "1", { download: false, cacheControl: "no-store" });
    expect(left.headers.get("content-type")).toBe("image/jpeg");
    expect(left.headers.get("content-disposition")).toBe('inline; filename="image-to-3d-input-left.jpg"');
    await left.arrayBuffer();
    for (const index of ["2", "3", "01x", "-1", "100", ""]) expect((await serveInputImage(GET, t, index, SERVE)).status).toBe(404);
  });

  it("serve an earlier task's cover as the image of that input", async () => {
    const t = await task("serve-cover", { kind: "depth", inputs: { image: { task: "src" } } });
    const res = await serveInputImage(GET, t, "0", SERVE);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="depth-input-image.png"');
    await res.arrayBuffer();
    const mesh = await task("serve-mesh-label", { kind: "texture", inputs: { mesh: { task: "src" } } });
    expect((await serveInputImage(GET, mesh, "0", SERVE)).headers.get("content-disposition")).toBe(
      'attachment; filename="texture-input-mesh-to-texture.png"',
    );
  });
});
