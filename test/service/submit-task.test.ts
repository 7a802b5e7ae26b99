import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture, type Envelope } from "../harness/api";
import { startServer, type TestServer } from "../harness/server";

let server: TestServer;
let api: Api;
const png = () => [fixture("chair.png"), "chair.png"] as [Blob, string];
const glb = () => [new Blob([Buffer.from("glTF\x02\x00\x00\x00\x14\x00\x00\x00padding....", "latin1")]), "m.glb"] as [Blob, string];

beforeAll(async () => {
  server = await startServer({ X3D_ENGINE_BALANCE: "1000", X3D_ENGINE_MIN_TASK_SECONDS: "30" });
  api = new Api(server.url);
});
afterAll(() => server?.dispose());

async function expectCode(fields: Parameters<Api["post"]>[1], code: number, msgPart?: string): Promise<Envelope> {
  const body = await api.post("submit-task", fields);
  expect(body.code, JSON.stringify(body)).toBe(code);
  expect(body.data).toEqual({});
  if (msgPart) expect(body.msg).toContain(msgPart);
  return body;
}

describe("submit-task refuses every invalid input with its code, charging nothing", () => {
  it("10031001: an image over 20 MB, refused while streaming", async () => {
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await expectCode({ images: [new Blob([big]), "big.png"] }, 10031001, "images");
  });
  it("10031002: face outside 100000..5000000, or not a whole number", async () => {
    await expectCode({ images: png(), face: "99999" }, 10031002, "face");
    await expectCode({ images: png(), face: "5000001" }, 10031002);
    await expectCode({ images: png(), face: "abc" }, 10031002);
  });
  it("10031003: a resolution the model does not offer", async () => {
    await expectCode({ images: png(), model: "x3dv3.0", resolution: "1536" }, 10031003, "resolution");
    await expectCode({ images: png(), model: "x3dv2.0", resolution: "2048master" }, 10031003);
  });
  it("10031004: request_type other than 1, 2, 3", async () => {
    await expectCode({ images: png(), request_type: "4" }, 10031004, "request_type");
    await expectCode({ images: png(), request_type: "x" }, 10031004);
  });
  it("10031005: an image that is not png, jpeg or webp by its bytes", async () => {
    await expectCode({ images: [new Blob(["GIF89a not allowed"], { type: "image/png" }), "a.png"] }, 10031005);
  });
  it("10031006: an unknown model", async () => {
    await expectCode({ images: png(), model: "x3dv9" }, 10031006, "model");
  });
  it("10031007: both images and multi_images", async () => {
    await expectCode({ images: png(), multi_images: [png()] }, 10031007);
  });
  it("10031008: no image at all", async () => {
    await expectCode({ model: "x3dv3.0" }, 10031008);
  });
  it("10031009: more than four views", async () => {
    await expectCode({ multi_images: [png(), png(), png(), png(), png()] }, 10031009);
  });
  it("10031010: an empty file", async () => {
    await expectCode({ images: [new Blob([]), "empty.png"] }, 10031010);
  });
  it("10031008: no body, or a body that is not a form (so no image in it)", async () => {
    const send = async (headers: Record<string, string>, body?: string) => {
      const res = await fetch(`${server.url}/open-api/v1/submit-task`, {
        method: "POST",
        headers: { Authorization: `Bearer ${await api.getToken()}`, ...headers },
        body,
      });
      return ((await res.json()) as Envelope).code;
    };
    expect(await send({})).toBe(10031008);
    expect(await send({ "Content-Type": "application/json" }, "{}")).toBe(10031008);
    expect(await send({ "Content-Type": "application/x-www-form-urlencoded" }, "model=x3dv3.0&format=2")).toBe(10031008);
  });
  it("10031011: request_type 2 without mesh or mesh_url", async () => {
    await expectCode({ images: png(), request_type: "2", model: "x3dv3.0" }, 10031011);
  });
  it("10031012: mesh_url not starting with http", async () => {
    await expectCode({ images: png(), request_type: "2", mesh_url: "ftp://example.com/a.glb" }, 10031012);
  });
  it("10031013/14/15: multi_images_bit length, characters and count", async () => {
    await expectCode({ multi_images: [png()], multi_images_bit: "100" }, 10031013);
    await expectCode({ multi_images: [png()], multi_images_bit: "10a0" }, 10031014);
    await expectCode({ multi_images: [png(), png()], multi_images_bit: "1000" }, 10031015);
  });
  it("10031021: views without the front", async () => {
    await expectCode({ multi_images: [png()], multi_images_bit: "0100" }, 10031021);
  });
  it("10031016: a mesh that is not GLB, by bytes or by URL", async () => {
    await expectCode({ images: png(), request_type: "2", mesh: [new Blob(["solid x\nfacet normal 0 0 1\n"]), "m.glb"] }, 10031016);
    await expectCode({ images: png(), request_type: "2", mesh_url: "https://example.com/model.obj" }, 10031016);
  });
  it("10031017: request_type 2 with a v2.0 or v2.1 model", async () => {
    for (const model of ["x3dv2.0", "x3dv2.1", "scene-portraitv2.0", "scene-portraitv2.1"]) {
      await expectCode({ images: png(), request_type: "2", model, mesh: glb() }, 10031017);
    }
  });
  it("10031018/19/20: pbr, rmbg and shading values", async () => {
    await expectCode({ images: png(), pbr: "2" }, 10031018, "pbr");
    await expectCode({ images: png(), rmbg: "yes" }, 10031019, "rmbg");
    await expectCode({ images: png(), shading: "0.55" }, 10031020, "shading");
    await expectCode({ images: png(), shading: "1.1" }, 10031020);
  });
  it("10030002 and 10030001: format and callback_url", async () => {
    await expectCode({ images: png(), format: "7" }, 10030002, "format");
    await expectCode({ images: png(), callback_url: "javascript:alert(1)" }, 10030001, "callback_url");
  });
  it("charged nothing for any of them", async () => {
    expect(await api.balance()).toBe(1000);
  });
});

describe("submit-task accepts what real clients send", () => {
  it("a PNG labelled image/jpeg, unknown fields, defaults, and charges the table's cost", async () => {
    const body = await api.post("submit-task", {
      images: [new Blob([await fixture("chair.png").arrayBuffer()], { type: "image/jpeg" }), "photo.jpg"],
      plug_type: "x",
      plug_task_id: "y",
    });
    expect(body.code, JSON.stringify(body)).toBe(200);
    expect(body.data.task_id).toMatch(/^i3d_\d{8}_[0-9a-f]{24}$/);
    expect(await api.balance()).toBe(1000 - 90); // v3.0 2048quality, request_type 3
  });
  it("multi_images without multi_images_bit, taken as front, back, left, right", async () => {
    const body = await api.post("submit-task", { multi_images: [png(), png()], model: "x3dv1.5", resolution: "512", request_type: "1" });
    expect(body.code, JSON.stringify(body)).toBe(200);
    expect(await api.balance()).toBe(1000 - 90 - 5);
  });
  it("pbr and shading for v1.5 are ignored, not refused; decimals in tenths pass", async () => {
    const body = await api.post("submit-task", {
      images: png(),
      model: "x3dv1.5",
      resolution: "1024",
      pbr: "1",
      shading: "0.3",
      face: "1000000",
    });
    expect(body.code).toBe(200);
  });
  it("a new task is visible to its query as created, queueing or processing", async () => {
    const body = await api.post("submit-task", { images: png(), model: "x3dv2.1", resolution: "1536fast" });
    const q = await api.get(`query-task?task_id=${body.data.task_id as string}`);
    expect(q.code).toBe(200);
    expect(["created", "queueing", "processing"]).toContain((q.data as { state: string }).state);
    expect(Object.keys(q.data).sort()).toEqual(["cover_url", "id", "state", "task_id", "url"]);
  });
  it("query-task: unknown ids and missing ids", async () => {
    expect((await api.get("query-task?task_id=i3d_20260101_000000000000000000000000")).code).toBe(10030010);
    expect((await api.get("query-task")).code).toBe(10030009);
  });
  it("malformed ids (NUL, control bytes, paths, 4 kB) answer like unknown ones on all four query routes, never 500", async () => {
    const ids = ["%00", "i3d_20260101_%00", "x%01y", "..%2F..%2Fetc", "a".repeat(4096), "%F0%9F%92%A9"];
    for (const route of ["query-task", "split/query-task", "depth/query-task", "segmentation/query-task"]) {
      for (const id of ids) {
        const res = await fetch(`${server.url}/open-api/v1/${route}?task_id=${id}`, {
          headers: { Authorization: `Bearer ${await api.getToken()}` },
        });
        expect(res.status, `${route} ${id}`).toBe(200);
        expect(((await res.json()) as { code: number }).code, `${route} ${id}`).toBe(10030010);
      }
    }
  });
  it("an unknown file part of 100 kB beside a valid image is skipped: the task is accepted and charged", async () => {
    const before = await api.balance();
    const body = await api.post("submit-task", {
      images: png(),
      model: "x3dv1.5",
      resolution: "512",
      request_type: "1",
      notes: [new Blob([new Uint8Array(100 * 1024).fill(65)]), "notes.bin"],
    });
    expect(body.code, JSON.stringify(body)).toBe(200);
    expect(await api.balance()).toBe(before - 5);
  });
});
