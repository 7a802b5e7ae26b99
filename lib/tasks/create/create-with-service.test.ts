// Creating tasks against the embedded service's prices: operators' cost overrides, the
// allowance, admins, the segmentation and depth forms, and the server action's wrapper.
// PGlite and uploads in a temporary DATA_DIR; the service client is faked at its edge.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.DATA_DIR = `${process.env.TMPDIR ?? "/tmp"}/x3d-create-service-${process.pid}-${Date.now()}`;
  process.env.X3D_ENGINE_COSTS = JSON.stringify({ split: 7, depth: 11, segmentation: 9 });
  process.env.X3D_DEFAULT_ALLOWANCE = "100";
  process.env.ADMIN_EMAILS = "boss@example.com";
});

const service = vi.hoisted(() => ({
  calls: [] as { method: string; input: Record<string, unknown> }[],
  fail: undefined as Error | undefined,
}));
const session = vi.hoisted(() => ({ user: null as { id: string; email: string } | null }));

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
  };
  return { x3d: () => client, usingLiveService: () => false };
});

const { eq } = await import("drizzle-orm");
const { db, database } = await import("@/lib/db");
const { creditLedger, studioTasks, uploads, users } = await import("@/lib/db/schema");
const { X3dError } = await import("@/lib/x3d/client");
const { ERRORS } = await import("@/lib/x3d/errors");
const { DEFAULT_COSTS } = await import("@/lib/x3d/costs");
const { costTable, createFromForm, createWithService, CREATED_UNSEEN } = await import("./create-task");
const { createSegmentationTask } = await import("./create-segmentation-task");
const { createDepthTask } = await import("./create-depth-task");
const { createSplitTask } = await import("./create-split-task");

const CHAIR = fs.readFileSync(path.resolve(import.meta.dirname, "../../../test/fixtures/chair.png"));
const GLB = new Uint8Array([...Buffer.from("glTF"), 2, 0, 0, 0, 20, 0, 0, 0, ...new Array(12).fill(0)]);

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const taskRow = async (id: string) => (await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id)))[0];
const charges = async (userId: string) =>
  (await (await db()).select().from(creditLedger).where(eq(creditLedger.userId, userId)))
    .filter((e) => e.kind === "charge")
    .map((e) => e.amount);

async function upload(id: string, userId: string, kind: "image" | "mesh", type: string, bytes: Uint8Array) {
  const file = `uploads/${id}`;
  fs.mkdirSync(path.join(process.env.DATA_DIR!, "studio", "uploads"), { recursive: true });
  fs.writeFileSync(path.join(process.env.DATA_DIR!, "studio", file), bytes);
  await (await db()).insert(uploads).values({ id, userId, kind, type, filename: `${id}.${type}`, size: bytes.length, file });
}

beforeAll(async () => {
  await (await db()).insert(users).values([
    { id: "amy", email: "amy@example.com" },
    { id: "boss", email: "boss@example.com" },
    { id: "cat", email: "cat@example.com" },
  ]);
  await upload("amy-mesh", "amy", "mesh", "glb", GLB);
  await upload("amy-photo", "amy", "image", "png", CHAIR);
});
beforeEach(() => {
  service.calls.length = 0;
  service.fail = undefined;
  session.user = null;
});
afterAll(async () => {
  await (await database()).close();
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});

describe("prices", () => {
  it("are the embedded service's, with the operator's overrides, the same table each time", () => {
    const table = costTable();
    expect(table).toMatchObject({ split: 7, depth: 11, segmentation: 9 });
    expect(table.imageTo3d).toEqual(DEFAULT_COSTS.imageTo3d);
    expect(costTable()).toBe(table);
  });
});

describe("segmentation and depth tasks", () => {
  it("segments the user's mesh at the overridden price, sending the options", async () => {
    const outcome = await createSegmentationTask("amy", form({ mesh: "amy-mesh", seg_level: "high", format: "3" }));
    if (outcome.status !== "created") throw new Error(JSON.stringify(outcome));
    expect(service.calls).toHaveLength(1);
    expect(service.calls[0]?.method).toBe("createSegmentationTask");
    expect(service.calls[0]?.input).toMatchObject({
      seg_level: "high",
      format: 3,
      mesh: { name: "amy-mesh.glb", type: "model/gltf-binary" },
    });
    expect(String(service.calls[0]?.input.callback_url)).toContain(`/api/callbacks/${outcome.id}/`);
    expect(await taskRow(outcome.id)).toMatchObject({
      kind: "segmentation",
      cost: 9,
      state: "created",
      serviceTaskId: "svc_1",
      options: { seg_level: "high", format: 3 },
      inputs: { mesh: { upload: "amy-mesh" } },
    });
  });

  it("refuses a bad form or a mesh that is gone before calling anyone", async () => {
    expect(await createSegmentationTask("amy", form({ mesh: "amy-mesh", format: "9" }))).toEqual({
      status: "error",
      fields: { format: ERRORS[10030002].user },
    });
    expect(await createSegmentationTask("cat", form({ mesh: "amy-mesh" }))).toEqual({
      status: "error",
      fields: { mesh: "That model is no longer available. Upload it again." },
    });
    expect(await createSplitTask("cat", form({ mesh: "amy-mesh" }))).toEqual({
      status: "error",
      fields: { mesh: "That model is no longer available. Upload it again." },
    });
    expect(await createSplitTask("amy", form({ mesh: "amy-mesh", part: "q" }))).toEqual({
      status: "error",
      fields: { part: ERRORS[10032002].user },
    });
    expect(service.calls).toEqual([]);
  });

  it("sends a depth image from an upload or a URL, recording where it came from", async () => {
    const fromUpload = await createDepthTask("amy", form({ image: "amy-photo", format: "2", rmbg: "0" }));
    if (fromUpload.status !== "created") throw new Error(JSON.stringify(fromUpload));
    expect(service.calls[0]?.input).toMatchObject({ format: 2, rmbg: 0, image: { name: "amy-photo.png", type: "image/png" } });
    expect(service.calls[0]?.input).not.toHaveProperty("image_url");
    expect(await taskRow(fromUpload.id)).toMatchObject({ kind: "depth", cost: 11, inputs: { image: { upload: "amy-photo" } } });

    const fromUrl = await createDepthTask("amy", form({ image_source: "url", image_url: "https://h.test/p.png", format: "2", rmbg: "1" }));
    if (fromUrl.status !== "created") throw new Error(JSON.stringify(fromUrl));
    expect(service.calls[1]?.input).toMatchObject({ image_url: "https://h.test/p.png" });
    expect(service.calls[1]?.input).not.toHaveProperty("image");
    expect((await taskRow(fromUrl.id))?.inputs).toEqual({ image: { url: "https://h.test/p.png" } });

    expect(await createDepthTask("cat", form({ image: "amy-photo", format: "2" }))).toEqual({
      status: "error",
      fields: { image: "That image is no longer available. Upload it again." },
    });
    expect(await createDepthTask("amy", form({ image_source: "task", image_task: "nothing", format: "2" }))).toEqual({
      status: "error",
      fields: { image: "That result's image is not available: pick another image." },
    });
    expect(service.calls).toHaveLength(2);
  });
});

describe("createWithService", () => {
  const request = (userId: string, cost: number) => ({
    userId,
    kind: "split" as const,
    cost,
    options: { model: "general" },
    inputs: { mesh: { url: "https://h.test/m.glb" } },
    shown: ["model"],
    call: async (callbackUrl: string) => {
      service.calls.push({ method: "call", input: { callbackUrl } });
      if (service.fail) throw service.fail;
      return { task_id: "svc-direct" };
    },
  });

  it("charges within the allowance and refuses past it, naming the cost and what is left", async () => {
    expect((await createWithService(request("cat", 95))).status).toBe("created");
    expect(await createWithService(request("cat", 6))).toEqual({
      status: "error",
      fields: {},
      message: "This task costs 6 credits and you have 5 left. Ask an admin for a larger allowance.",
    });
    expect((await createWithService(request("cat", 5))).status).toBe("created");
    expect(await charges("cat")).toEqual([-95, -5]);
    expect(service.calls).toHaveLength(2);
  });

  it("lets an admin go past the allowance, still recording the charge", async () => {
    expect((await createWithService(request("boss", 140))).status).toBe("created");
    expect(await charges("boss")).toEqual([-140]);
  });

  it("removes the task and its charge when the service refuses, and tells the form why", async () => {
    service.fail = new X3dError({ code: 10032001, msg: "model not valid", kind: "service" });
    const outcome = await createWithService(request("boss", 3));
    expect(outcome).toEqual({ status: "error", fields: { model: ERRORS[10032001].user }, code: 10032001 });
    expect(await charges("boss")).toEqual([-140]);
  });

  it("keeps the task as checking when the answer was lost", async () => {
    service.fail = new X3dError({ code: 0, msg: "socket hang up", kind: "network", mayHaveReached: true });
    const outcome = await createWithService(request("boss", 2));
    if (outcome.status !== "created") throw new Error(JSON.stringify(outcome));
    expect(await taskRow(outcome.id)).toMatchObject({ state: "checking", serviceTaskId: null, cost: 2 });
  });
});

describe("createFromForm", () => {
  it("asks a visitor without a session to sign in, creating nothing", async () => {
    const create = vi.fn();
    expect(await createFromForm(session.user, create, form({}))).toEqual({
      status: "error",
      fields: {},
      message: "Your session has ended: sign in again.",
    });
    expect(create).not.toHaveBeenCalled();
  });

  it("creates as the signed-in user and answers the new task as the status route shows it, going nowhere", async () => {
    session.user = { id: "amy", email: "amy@example.com" };
    const create = vi.fn((userId: string, f: FormData) => createSplitTask(userId, f));
    const outcome = await createFromForm(session.user, create, form({ mesh: "amy-mesh" }));
    expect(create).toHaveBeenCalledWith("amy", expect.any(FormData));
    if (outcome.status !== "created") throw new Error(JSON.stringify(outcome));
    expect(outcome.id).toMatch(/\S/);
    expect(outcome.task).toMatchObject({
      id: outcome.id,
      kind: "split",
      state: "created",
      settled: false,
      cost: 7,
      result: { stored: false, url: null },
      cover: { stored: false, url: null },
    });
    // The view a browser gets: never the callback URL, which carries the task's secret.
    expect(JSON.stringify(outcome.task)).not.toContain("callback");
    expect(await taskRow(outcome.id)).toMatchObject({ userId: "amy", kind: "split" });
  });

  it("says a task made but gone before it could be read back cannot be shown, rather than inviting a second run", async () => {
    session.user = { id: "amy", email: "amy@example.com" };
    const create = vi.fn(async (userId: string) => ({ status: "created" as const, id: `gone-${userId}` }));
    expect(await createFromForm(session.user, create, form({ a: "1" }))).toEqual({ status: "error", fields: {}, message: CREATED_UNSEEN });
    expect(CREATED_UNSEEN).not.toMatch(/try again/i);
  });

  it("hands the form an error outcome, and turns a thrown error into a sentence", async () => {
    session.user = { id: "amy", email: "amy@example.com" };
    const refused = { status: "error" as const, fields: { face: "Too few." } };
    expect(await createFromForm(session.user, async () => refused, form({}))).toEqual(refused);
    expect(
      await createFromForm(
        session.user,
        async () => {
          throw new X3dError({ code: 10031003, msg: "Resolution not valid", kind: "service" });
        },
        form({}),
      ),
    ).toEqual({ status: "error", fields: {}, message: ERRORS[10031003].user, code: 10031003 });
  });
});
