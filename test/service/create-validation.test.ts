import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { startServer, type TestServer } from "../harness/server";

let server: TestServer;
let api: Api;
const png = () => [fixture("chair.png"), "chair.png"] as [Blob, string];
const stl = () =>
  [
    new Blob(["solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n"]),
    "t.stl",
  ] as [Blob, string];

beforeAll(async () => {
  server = await startServer({ X3D_ENGINE_MIN_TASK_SECONDS: "30" });
  api = new Api(server.url);
});
afterAll(() => server?.dispose());

async function expectCode(route: string, fields: Parameters<Api["post"]>[1], code: number, field?: string, scheme = "Bearer") {
  const body = await api.post(route, fields, scheme);
  expect(body.code, JSON.stringify(body)).toBe(code);
  expect(body.data).toEqual({});
  if (field) expect(body.msg).toContain(field);
}

describe("split/create-task", () => {
  const r = "split/create-task";
  it("mesh input errors", async () => {
    await expectCode(r, {}, 10030003);
    await expectCode(r, { mesh: stl(), mesh_url: "https://example.com/a.stl" }, 10030004);
    await expectCode(r, { mesh: [new Blob(["hello world, not a mesh"]), "a.glb"] }, 10030005, "mesh");
    await expectCode(r, { mesh_url: "https://example.com/a.fbx" }, 10030005, "mesh_url");
    await expectCode(r, { mesh_url: "ftp://example.com/a.stl" }, 10030007, "mesh_url");
    await expectCode(r, { mesh: [new Blob([]), "a.stl"] }, 10030008);
    await expectCode(r, { mesh: [stl(), stl()] }, 10030012);
  });
  it("10030006: a mesh over 200 MB, refused while streaming", async () => {
    const big = new Uint8Array(200 * 1024 * 1024 + 1);
    big.set(new TextEncoder().encode("glTF"));
    await expectCode(r, { mesh: [new Blob([big]), "huge.glb"] }, 10030006, "mesh");
  });
  it("option errors name the field and the allowed values", async () => {
    await expectCode(r, { mesh: stl(), model: "robot" }, 10032001, "model");
    await expectCode(r, { mesh: stl(), part: "g" }, 10032002, "part");
    await expectCode(r, { mesh: stl(), joint: "glue" }, 10032003, "joint");
    await expectCode(r, { mesh: stl(), merge: "maybe" }, 10032004, "merge");
    await expectCode(r, { mesh: stl(), model: "general", level: "extreme" }, 10032005, "level");
    await expectCode(r, { mesh: stl(), format: "0" }, 10030002, "format");
    await expectCode(r, { mesh: stl(), callback_url: "not a url" }, 10030001);
  });
  it("a JSON body is not a form", async () => {
    const res = await fetch(`${server.url}/open-api/v1/${r}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await api.getToken()}`, "Content-Type": "application/json" },
      body: JSON.stringify({ mesh_url: "https://example.com/a.stl" }),
    });
    expect(((await res.json()) as { code: number }).code).toBe(10030011);
  });
  it("accepted: answers task_id and state queueing", async () => {
    const body = await api.post(r, { mesh: stl(), model: "general", level: "low", format: "2" });
    expect(body.code).toBe(200);
    expect(body.data.state).toBe("queueing");
    expect(body.data.task_id).toMatch(/^split_/);
  });
});

describe("depth/create-task", () => {
  const r = "depth/create-task";
  const ok = { image: png(), format: "2" };
  it("image input errors", async () => {
    await expectCode(r, { format: "2" }, 10033001);
    await expectCode(r, { ...ok, image_url: "https://example.com/a.png" }, 10033002);
    await expectCode(r, { image: [new Blob(["GIF89a"]), "a.png"], format: "2" }, 10033003, "image");
    await expectCode(r, { image_url: "https://example.com/a.gif", format: "2" }, 10033003);
    const big = new Uint8Array(20 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff]);
    await expectCode(r, { image: [new Blob([big]), "big.jpg"], format: "2" }, 10033004, "image");
    await expectCode(r, { image_url: "file:///etc/passwd", format: "2" }, 10033005);
    await expectCode(r, { image: [new Blob([]), "a.png"], format: "2" }, 10033016);
  });
  it("every range and step", async () => {
    await expectCode(r, { ...ok, model_type: "ultra" }, 10033006, "model_type");
    await expectCode(r, { ...ok, height_relief: "0.05" }, 10033007, "height_relief");
    await expectCode(r, { ...ok, height_relief: "50.1" }, 10033007);
    await expectCode(r, { ...ok, rmbg: "2" }, 10033008, "rmbg");
    await expectCode(r, { ...ok, degree_rmbg: "0.015" }, 10033009, "degree_rmbg");
    await expectCode(r, { ...ok, degree_rmbg: "1.01" }, 10033009);
    await expectCode(r, { ...ok, rmbg: "0", shape_base: "2" }, 10033010, "shape_base");
    await expectCode(r, { ...ok, rmbg: "0", thickness_base: "0.15" }, 10033011, "thickness_base");
    await expectCode(r, { ...ok, rmbg: "0", thickness_base: "20.1" }, 10033011);
    await expectCode(r, { ...ok, width: "19" }, 10033012, "width");
    await expectCode(r, { ...ok, width: "601" }, 10033012);
    await expectCode(r, { ...ok, sculpmode: "3" }, 10033013, "sculpmode");
    await expectCode(r, { ...ok, response_format: "b64" }, 10033014, "response_format");
    await expectCode(r, { image: png() }, 10033015, "format");
    await expectCode(r, { ...ok, format: "7" }, 10030002, "format");
  });
  it("accepts the edges of every range", async () => {
    const body = await api.post(r, { ...ok, height_relief: "50.0", degree_rmbg: "1.00", width: "600", sculpmode: "1", model_type: "base" });
    expect(body.code, JSON.stringify(body)).toBe(200);
    const body2 = await api.post(r, { ...ok, rmbg: "0", thickness_base: "0.1", shape_base: "1", width: "20", height_relief: "0.1" });
    expect(body2.code, JSON.stringify(body2)).toBe(200);
  });
});

describe("segmentation/create-task", () => {
  const r = "segmentation/create-task";
  it("validates mesh, seg_level and format (1..5), with the Token scheme", async () => {
    await expectCode(r, {}, 10030003, undefined, "Token");
    await expectCode(r, { mesh: stl(), seg_level: "max" }, 10034001, "seg_level", "Token");
    await expectCode(r, { mesh: stl(), format: "6" }, 10030002, "format", "Token");
    const body = await api.post(r, { mesh: stl(), seg_level: "low" }, "Token");
    expect(body.code).toBe(200);
    expect(body.data.task_id).toMatch(/^segmentation_\d{8}_/);
  });
});

describe("URLs with control characters", () => {
  it("are refused with the field's code, not a system error (PostgreSQL cannot store a NUL)", async () => {
    await expectCode("split/create-task", { mesh_url: "https://example.com/a\0.stl" }, 10030007, "mesh_url");
    await expectCode("split/create-task", { mesh_url: "https://example.com/a.stl", callback_url: "https://example.com/hook\0" }, 10030001);
    await expectCode("depth/create-task", { image_url: "https://example.com/a\u0001.png", format: "2" }, 10033005);
    await expectCode("segmentation/create-task", { mesh: stl(), callback_url: "https://example.com/\u007f" }, 10030001, undefined, "Token");
    await expectCode(
      "submit-task",
      { images: png(), request_type: "2", model: "x3dv3.0", mesh_url: "https://example.com/a\0.glb" },
      10031012,
      "mesh_url",
    );
  });
});

describe("nothing was charged for refusals", () => {
  it("balance = start - 20 per accepted task", async () => {
    expect(await api.balance()).toBe(1000 - 4 * 20);
  });
});
