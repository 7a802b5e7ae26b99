// Creating tasks end to end on the server side: staged uploads in a temporary DATA_DIR with
// PGlite, the real validation, ownership checks and recording, and a fake service client.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const dataDir = vi.hoisted(() => {
  const dir = `${process.env.TMPDIR ?? "/tmp"}/x3d-create-tasks-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = dir;
  return dir;
});

const service = vi.hoisted(() => ({
  calls: [] as { method: string; input: Record<string, unknown> }[],
  fail: undefined as Error | undefined,
}));

vi.mock("@/lib/x3d/service", () => {
  const answer = (method: string) => async (input: Record<string, unknown>) => {
    service.calls.push({ method, input });
    if (service.fail) throw service.fail;
    return { task_id: `svc_${service.calls.length}` };
  };
  const client = {
    submitTask: answer("submitTask"),
    createSplitTask: answer("createSplitTask"),
    createDepthTask: answer("createDepthTask"),
    createSegmentationTask: answer("createSegmentationTask"),
    querySegmentationTask: async (id: string) => {
      service.calls.push({ method: "querySegmentationTask", input: { id } });
      if (service.fail) throw service.fail;
      return { task_id: id, state: "processing" };
    },
  };
  return { x3d: () => client, usingLiveService: () => true };
});

// next-auth does not load outside Next.js; these tests call the create functions with a user id.

const { db, database } = await import("@/lib/db");
const { studioTasks, users } = await import("@/lib/db/schema");
const { writeStored } = await import("@/lib/storage");
const { findUpload, findUploads, stageUpload } = await import("@/lib/storage/uploads");
const { X3dError } = await import("@/lib/x3d/client");
const { ERRORS } = await import("@/lib/x3d/errors");
const { createImageTask } = await import("./create-image-task");
const { createTextureTask } = await import("./create-texture-task");
const { createSplitTask } = await import("./create-split-task");
const { lookUpSegmentationTask } = await import("./create-segmentation-task");
const { createDepthTask } = await import("./create-depth-task");
const { prefillFor } = await import("./prefill");
const { eq } = await import("drizzle-orm");

const CHAIR = fs.readFileSync(path.resolve(import.meta.dirname, "../../../test/fixtures/chair.png"));
const GLB = new Uint8Array([...Buffer.from("glTF"), 2, 0, 0, 0, 20, 0, 0, 0, ...new Array(12).fill(0)]);

function uploadRequest(bytes: Uint8Array, name: string, kind?: string): Request {
  const body = new FormData();
  body.append("file", new Blob([new Uint8Array(bytes)]), name);
  return new Request(`http://studio.test/api/uploads${kind ? `?kind=${kind}` : ""}`, { method: "POST", body });
}

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const IMAGE_OPTIONS = { model: "x3dv1.5", resolution: "512", face: "500000", format: "2", rmbg: "1", request_type: "3" };

async function stage(userId: string, bytes: Uint8Array, name: string, kind: "image" | "mesh") {
  const staged = await stageUpload(userId, uploadRequest(bytes, name, kind), kind);
  if (!staged.ok) throw new Error(staged.error);
  return staged.upload;
}

const tasksOf = async (userId: string) => (await db()).select().from(studioTasks).where(eq(studioTasks.userId, userId));

beforeAll(async () => {
  await (await db()).insert(users).values([
    { id: "ann", email: "ann@example.com" },
    { id: "bob", email: "bob@example.com" },
  ]);
});

afterAll(async () => {
  await (await database()).close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  service.calls.length = 0;
  service.fail = undefined;
});

describe("uploads", () => {
  it("stages a file by its bytes, for its owner only", async () => {
    const upload = await stage("ann", CHAIR, "my chair.jpg", "image");
    expect(upload).toMatchObject({ kind: "image", type: "png", filename: "my chair.jpg", size: CHAIR.length });
    expect(await findUpload("ann", upload.id)).toBeDefined();
    expect(await findUpload("bob", upload.id)).toBeUndefined();
    expect([...(await findUploads("ann", [upload.id, "no-such-upload"])).keys()]).toEqual([upload.id]);
    expect((await findUploads("bob", [upload.id])).size).toBe(0);
  });

  it("refuses the wrong type and the wrong kind with a sentence", async () => {
    const text = await stageUpload("ann", uploadRequest(Buffer.from("just text"), "notes.png", "image"), "image");
    expect(text).toEqual({ ok: false, status: 415, error: "notes.png is not a PNG, JPEG or WebP image.", field: "file" });
    const kind = await stageUpload("ann", uploadRequest(CHAIR, "chair.png", "mesh"), "mesh");
    expect(kind).toMatchObject({ ok: false, status: 415 });
    expect(fs.readdirSync(path.join(dataDir, "studio/uploads/incoming"))).toEqual([]);
  });

  it("stops reading a file over the kind's limit", async () => {
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set(CHAIR.subarray(0, 8));
    const refused = await stageUpload("ann", uploadRequest(big, "big.png", "image"), "image");
    expect(refused).toMatchObject({ ok: false, status: 413, error: "The file is too large: images may be at most 20 MB." });
  });
});

describe("image to 3D", () => {
  it("sends the user's image with the options that apply and records the task", async () => {
    const upload = await stage("ann", CHAIR, "chair.png", "image");
    const outcome = await createImageTask("ann", form({ ...IMAGE_OPTIONS, mode: "single", images: upload.id, pbr: "1", shading: "0.5" }));
    expect(outcome.status).toBe("created");
    const [call] = service.calls;
    expect(call?.method).toBe("submitTask");
    expect(call?.input).toMatchObject({
      request_type: 3,
      model: "x3dv1.5",
      resolution: "512",
      face: 500000,
      format: 2,
      images: { name: "chair.png", type: "image/png" },
    });
    expect(call?.input).not.toHaveProperty("pbr");
    expect(String(call?.input.callback_url)).toMatch(/\/api\/callbacks\//);
    const [task] = (await tasksOf("ann")).filter((t) => outcome.status === "created" && t.id === outcome.id);
    expect(task).toMatchObject({
      kind: "image-to-3d",
      serviceTaskId: "svc_1",
      cost: 15,
      state: "created",
      inputs: { images: [upload.id] },
    });
  });

  it("sends views in slot order with their bit string", async () => {
    const front = await stage("ann", CHAIR, "front.png", "image");
    const left = await stage("ann", CHAIR, "left.png", "image");
    const outcome = await createImageTask("ann", form({ ...IMAGE_OPTIONS, mode: "multi", view_left: left.id, view_front: front.id }));
    expect(outcome.status).toBe("created");
    const input = service.calls[0]?.input as { multi_images: { name: string }[]; multi_images_bit: string };
    expect(input.multi_images.map((f) => f.name)).toEqual(["front.png", "left.png"]);
    expect(input.multi_images_bit).toBe("1010");
  });

  it("treats someone else's upload as gone, and calls nothing", async () => {
    const bobs = await stage("bob", CHAIR, "bob.png", "image");
    const outcome = await createImageTask("ann", form({ ...IMAGE_OPTIONS, mode: "single", images: bobs.id }));
    expect(outcome).toEqual({ status: "error", fields: { images: "That image is no longer available. Upload it again." } });
    expect(service.calls).toEqual([]);
  });

  it("records nothing when the service refuses, and says why where it belongs", async () => {
    const upload = await stage("ann", CHAIR, "chair.png", "image");
    const before = (await tasksOf("ann")).length;
    service.fail = new X3dError({ code: 30010000, msg: "balance is not enough", kind: "service" });
    expect(await createImageTask("ann", form({ ...IMAGE_OPTIONS, mode: "single", images: upload.id }))).toEqual({
      status: "error",
      fields: {},
      message: ERRORS[30010000].user,
      code: 30010000,
    });
    service.fail = new X3dError({ code: 10031003, msg: "Resolution not valid", kind: "service" });
    expect(await createImageTask("ann", form({ ...IMAGE_OPTIONS, mode: "single", images: upload.id }))).toEqual({
      status: "error",
      fields: { resolution: ERRORS[10031003].user },
      code: 10031003,
    });
    expect((await tasksOf("ann")).length).toBe(before);
  });
});

describe("meshes from earlier results", () => {
  async function finishedTask(userId: string, id: string, file: string, bytes: Uint8Array) {
    await writeStored(file, bytes);
    const coverFile = `results/${id}/cover.png`;
    await writeStored(coverFile, CHAIR);
    await (await db()).insert(studioTasks).values({
      id,
      userId,
      kind: "image-to-3d",
      serviceTaskId: `svc_${id}`,
      options: { format: 2 },
      inputs: {},
      state: "success",
      resultFile: file,
      coverFile,
      stateTimes: {},
    });
  }

  it("textures the user's own GLB result, and refuses others' and non-GLB ones", async () => {
    await finishedTask("ann", "annglb", "results/annglb/result.glb", GLB);
    await finishedTask("bob", "bobglb", "results/bobglb/result.glb", GLB);
    await finishedTask("ann", "annobj", "results/annobj/result.obj", new TextEncoder().encode("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"));
    const image = await stage("ann", CHAIR, "look.png", "image");
    const fields = { model: "x3dv3.0", resolution: "2048quality", format: "2", rmbg: "1", images: image.id, mesh_source: "task" };

    const ok = await createTextureTask("ann", form({ ...fields, mesh_task: "annglb" }));
    expect(ok.status).toBe("created");
    expect(service.calls[0]?.input).toMatchObject({ request_type: 2, mesh: { name: "result.glb" } });
    expect(service.calls[0]?.input).not.toHaveProperty("face");

    const others = await createTextureTask("ann", form({ ...fields, mesh_task: "bobglb" }));
    expect(others).toMatchObject({ status: "error", fields: { mesh: expect.stringMatching(/not available/) } });
    const obj = await createTextureTask("ann", form({ ...fields, mesh_task: "annobj" }));
    expect(obj).toMatchObject({ status: "error", fields: { mesh: ERRORS[10031016].user } });
    // Split takes OBJ.
    expect((await createSplitTask("ann", form({ mesh_source: "task", mesh_task: "annobj" }))).status).toBe("created");
    expect(service.calls).toHaveLength(2);
  });

  it("makes a depth task from a result's cover image", async () => {
    const depth = { image_source: "task", format: "3" };
    expect((await createDepthTask("ann", form({ ...depth, image_task: "annglb" }))).status).toBe("created");
    expect(service.calls[0]?.input).toMatchObject({ image: { name: "cover.png", type: "image/png" }, format: 3, rmbg: 1 });
    expect(await createDepthTask("ann", form({ ...depth, image_task: "bobglb" }))).toMatchObject({
      status: "error",
      fields: { image: expect.any(String) },
    });
  });

  it("prefills forms from the user's own earlier tasks only", async () => {
    expect(await prefillFor("ann", { kind: "texture", from: "annglb", meshTypes: ["glb"] })).toMatchObject({
      mesh: { source: "task", task: { id: "annglb", type: "glb" } },
    });
    expect(await prefillFor("ann", { kind: "texture", from: "annobj", meshTypes: ["glb"] })).toEqual({
      notice: expect.stringMatching(/cannot be used/),
    });
    expect(await prefillFor("ann", { kind: "split", from: "bobglb", meshTypes: ["glb", "stl", "obj"] })).toEqual({
      notice: expect.stringMatching(/cannot be used/),
    });
    expect(await prefillFor("ann", { kind: "depth", from: "annglb" })).toMatchObject({ image: { source: "task", task: { id: "annglb" } } });

    const image = await stage("ann", CHAIR, "again.png", "image");
    const created = await createImageTask("ann", form({ ...IMAGE_OPTIONS, mode: "single", images: image.id, request_type: "1" }));
    if (created.status !== "created") throw new Error("not created");
    const again = await prefillFor("ann", { kind: "image-to-3d", again: created.id });
    expect(again).toMatchObject({
      options: { model: "x3dv1.5", resolution: "512", request_type: 1 },
      image: { source: "upload", upload: { id: image.id } },
    });
    expect(await prefillFor("bob", { kind: "image-to-3d", again: created.id })).toEqual({
      notice: expect.stringMatching(/cannot be run again/),
    });
  });
});

describe("segmentation look-up", () => {
  const NOT_FOUND = { status: "error", fields: { task_id: ERRORS[10030010].user }, code: 10030010 };

  it("finds the user's own segmentation task by its service id, the same one each time", async () => {
    await (await db()).insert(studioTasks).values({
      id: "annseg",
      userId: "ann",
      kind: "segmentation",
      serviceTaskId: "segmentation_ann",
      options: {},
      inputs: {},
      state: "processing",
      stateTimes: {},
    });
    expect(await lookUpSegmentationTask("ann", form({ task_id: "segmentation_ann" }))).toEqual({ status: "created", id: "annseg" });
    expect(await lookUpSegmentationTask("ann", form({ task_id: " segmentation_ann " }))).toEqual({ status: "created", id: "annseg" });
  });

  it("answers another user's task exactly as an unknown one, and imports neither", async () => {
    await (await db()).insert(studioTasks).values({
      id: "bobseg",
      userId: "bob",
      kind: "segmentation",
      serviceTaskId: "segmentation_bob",
      options: {},
      inputs: {},
      state: "processing",
      stateTimes: {},
    });
    const before = (await tasksOf("ann")).length;
    // The service knows both (one service account serves every user): it is not asked.
    expect(await lookUpSegmentationTask("ann", form({ task_id: "segmentation_bob" }))).toEqual(NOT_FOUND);
    expect(await lookUpSegmentationTask("ann", form({ task_id: "segmentation_unknown" }))).toEqual(NOT_FOUND);
    // Nor one the studio does not know at all (started through the Open API, say).
    expect(await lookUpSegmentationTask("ann", form({ task_id: "svc_elsewhere" }))).toEqual(NOT_FOUND);
    expect(service.calls).toEqual([]);
    expect((await tasksOf("ann")).length).toBe(before);
  });
});
