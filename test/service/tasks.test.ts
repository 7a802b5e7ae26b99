import { unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { startServer, type TestServer } from "../harness/server";
import { rawGlb, squareGltf } from "@/lib/engine/formats/fixtures.test-helpers";
import { readMesh } from "@/lib/engine/formats/read-mesh";
import type { MeshPart } from "@/lib/engine/mesh/types";

let server: TestServer;
let api: Api;
const png = (name = "chair.png") => [fixture(name), name] as [Blob, string];

beforeAll(async () => {
  server = await startServer({ X3D_ENGINE_BALANCE: "5000" });
  api = new Api(server.url);
});
afterAll(() => server?.dispose());

async function download(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}
const ascii = (b: Uint8Array, n = 8) => Buffer.from(b.subarray(0, n)).toString("latin1");
const isPng = (b: Uint8Array) => b[0] === 0x89 && ascii(b.subarray(1), 3) === "PNG";

/** Triangles of an indexed GLB: the index accessors' counts over 3. */
function glbTriangles(b: Uint8Array): number {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const json = JSON.parse(Buffer.from(b.subarray(20, 20 + view.getUint32(12, true))).toString("utf8")) as {
    meshes: { primitives: { indices: number }[] }[];
    accessors: { count: number }[];
  };
  return json.meshes.flatMap((m) => m.primitives).reduce((n, p) => n + json.accessors[p.indices]!.count / 3, 0);
}

/** A mesh part's surface area. */
function area(p: MeshPart): number {
  let sum = 0;
  const q = p.positions;
  for (let t = 0; t < p.indices.length; t += 3) {
    const [a, b, c] = [p.indices[t]! * 3, p.indices[t + 1]! * 3, p.indices[t + 2]! * 3];
    const u = [0, 1, 2].map((k) => q[b + k]! - q[a + k]!);
    const v = [0, 1, 2].map((k) => q[c + k]! - q[a + k]!);
    sum += Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!) / 2;
  }
  return sum;
}

/** The bounds of every part together, [min xyz, max xyz]. */
function boundsOf(parts: MeshPart[]): [number[], number[]] {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const p of parts)
    for (let i = 0; i < p.positions.length; i++) {
      lo[i % 3] = Math.min(lo[i % 3]!, p.positions[i]!);
      hi[i % 3] = Math.max(hi[i % 3]!, p.positions[i]!);
    }
  return [lo, hi];
}

/** Runs a task to success and returns the result and cover bytes; the query may use another scheme. */
async function complete(create: string, query: string, fields: Parameters<Api["post"]>[1], scheme = "Bearer", queryScheme = scheme) {
  const created = await api.post(create, fields, scheme);
  expect(created.code, JSON.stringify(created)).toBe(200);
  const taskId = created.data.task_id as string;
  const done = await api.waitFor(query, taskId, queryScheme);
  expect(done.code, JSON.stringify(done)).toBe(200);
  expect(done.data.state).toBe("success");
  expect(done.data.id).toBe(`${taskId}_0`);
  const result = await download(done.data.url!);
  const cover = await download(done.data.cover_url!);
  expect(isPng(cover)).toBe(true);
  return { taskId, result, cover, data: done.data };
}

describe("image-to-3D from submission to downloaded file", () => {
  it("one image to GLB with the defaults (x3dv3.0 2048quality, 2,000,000 faces), with fresh links on every query", async () => {
    const { taskId, result, data } = await complete("submit-task", "query-task", { images: png(), format: "2" });
    expect(ascii(result, 4)).toBe("glTF");
    expect(Math.abs(glbTriangles(result) / 2_000_000 - 1)).toBeLessThanOrEqual(0.1);
    await new Promise((r) => setTimeout(r, 1100));
    const again = await api.get(`query-task?task_id=${taskId}`);
    expect((again.data as { url: string }).url).not.toBe(data.url);
    expect(new URL((again.data as { url: string }).url).searchParams.get("auth_key")).toBeTruthy();
  });

  it.each([
    ["1", (b: Uint8Array) => ascii(b, 2) === "PK" || /^(#|o |v |mtllib)/m.test(ascii(b, 200))],
    ["3", (b: Uint8Array) => b.length === 84 + 50 * new DataView(b.buffer, b.byteOffset).getUint32(80, true)],
    ["4", (b: Uint8Array) => ascii(b, 200).includes("FBX")],
    ["5", (b: Uint8Array) => ascii(b, 2) === "PK" && ascii(b, 120).includes(".usd")],
    ["6", (b: Uint8Array) => ascii(b, 2) === "PK"],
  ])("format %s", async (format, check) => {
    const { result } = await complete("submit-task", "query-task", {
      images: png("robot.png"),
      format,
      model: "x3dv1.5",
      resolution: "512",
      request_type: "1",
      face: "100000",
    });
    expect(check(result)).toBe(true);
    if (format === "3") expect(Math.abs((result.length - 84) / 50 / 100_000 - 1)).toBeLessThanOrEqual(0.1);
  });

  it("multi-view with the bit string, then texturing that result (request_type 2)", async () => {
    const first = await complete("submit-task", "query-task", {
      multi_images: [png("teapot.png"), png("teapot.png")],
      multi_images_bit: "1010",
      format: "2",
      face: "200000",
    });
    const { result } = await complete("submit-task", "query-task", {
      images: png("teapot.png"),
      request_type: "2",
      model: "x3dv1.5",
      mesh: [new Blob([first.result as BlobPart]), "mine.glb"],
      format: "2",
    });
    expect(ascii(result, 4)).toBe("glTF");
    // Texturing keeps the given mesh: its triangles, surface and bounds, now with a texture.
    const given = await readMesh(first.result);
    const textured = await readMesh(result);
    expect(glbTriangles(result)).toBe(glbTriangles(first.result));
    const sumArea = (parts: MeshPart[]) => parts.reduce((s, p) => s + area(p), 0);
    expect(sumArea(textured.parts) / sumArea(given.parts)).toBeCloseTo(1, 3);
    const [lo, hi] = boundsOf(given.parts);
    const [tlo, thi] = boundsOf(textured.parts);
    for (let d = 0; d < 3; d++) {
      expect(tlo[d]).toBeCloseTo(lo[d]!, 3);
      expect(thi[d]).toBeCloseTo(hi[d]!, 3);
    }
    expect(textured.parts.every((p) => p.uvs && p.material?.baseColorTexture)).toBe(true);
  });
});

describe("split, depth and segmentation from submission to downloaded file", () => {
  let glb: Uint8Array;
  beforeAll(async () => {
    ({ result: glb } = await complete("submit-task", "query-task", {
      images: png("robot.png"),
      format: "2",
      model: "x3dv1.5",
      resolution: "1024",
      request_type: "1",
      face: "200000",
    }));
  });
  it("split a GLB with the defaults (character, six parts, ball joints, merged), queried with the Token scheme", async () => {
    const { result } = await complete(
      "split/create-task",
      "split/query-task",
      { mesh: [new Blob([glb as BlobPart]), "robot.glb"], format: "2" },
      "Bearer",
      "Token",
    );
    const parts = (await readMesh(result)).parts;
    expect(parts.map((p) => p.name).sort()).toEqual(["head", "left_arm", "left_leg", "right_arm", "right_leg", "torso"]);
    const [lo, hi] = boundsOf((await readMesh(glb)).parts);
    const [plo, phi] = boundsOf(parts);
    for (let d = 0; d < 3; d++) {
      expect(plo[d]).toBeCloseTo(lo[d]!, 0);
      expect(phi[d]).toBeCloseTo(hi[d]!, 0);
    }
  });
  it("split with part f and merge no: body, head and the ball joint's connector as its own part", async () => {
    const { result } = await complete("split/create-task", "split/query-task", {
      mesh: [new Blob([glb as BlobPart]), "robot.glb"],
      part: "f",
      joint: "ball",
      merge: "no",
      format: "2",
    });
    expect((await readMesh(result)).parts.map((p) => p.name).sort()).toEqual(["body", "head", "joint_1"]);
  });
  it("depth map as PNG at the model type's size, and a relief as STL measuring its width, base and relief", async () => {
    const map = await complete("depth/create-task", "depth/query-task", {
      image: png("police_woman.png"),
      format: "2",
      model_type: "base",
    });
    expect(isPng(map.result)).toBe(true);
    // model_type base: the map's longer side is 1K (pro would be 2K).
    const size = await sharp(map.result).metadata();
    expect(Math.max(size.width!, size.height!)).toBe(1024);
    // The relief measures what was asked: width across, thickness_base + height_relief high.
    const relief = await complete("depth/create-task", "depth/query-task", {
      image: png("police_woman.png"),
      format: "3",
      width: "60",
      rmbg: "0",
      height_relief: "2",
      thickness_base: "1.5",
    });
    const [lo, hi] = boundsOf((await readMesh(relief.result)).parts);
    expect(hi[0]! - lo[0]!).toBeCloseTo(60, 2);
    expect(lo[1]).toBeCloseTo(0, 4);
    expect(hi[1]).toBeCloseTo(3.5, 1);
  });
  it("segmentation of a GLB into OBJ", async () => {
    const { result } = await complete(
      "segmentation/create-task",
      "segmentation/query-task",
      { mesh: [new Blob([glb as BlobPart]), "robot.glb"], seg_level: "low", format: "1" },
      "Token",
    );
    // The OBJ (zipped with its material library) has parts that cut the given surface
    // without losing or adding any of it.
    expect(ascii(result, 2)).toBe("PK");
    const files = unzipSync(result);
    const obj = Object.keys(files).find((f) => f.endsWith(".obj"));
    expect(Object.keys(files).some((f) => f.endsWith(".mtl"))).toBe(true);
    const parts = (await readMesh(files[obj!]!)).parts;
    expect(parts.length).toBeGreaterThan(1);
    const given = (await readMesh(glb)).parts.reduce((s, p) => s + area(p), 0);
    expect(parts.reduce((s, p) => s + area(p), 0) / given).toBeCloseTo(1, 2);
  });
});

describe("failed tasks answer their code with empty data, and are refunded", () => {
  const corrupt = () => {
    const bytes = new Uint8Array(4000).map((_, i) => (i * 7919) % 251);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    return [new Blob([bytes]), "broken.png"] as [Blob, string];
  };
  it("image-to-3D: 50010001", async () => {
    const before = await api.balance();
    const created = await api.post("submit-task", { images: corrupt() });
    expect(created.code).toBe(200);
    const done = await api.waitFor("query-task", created.data.task_id as string);
    expect(done).toEqual({ code: 50010001, data: {}, msg: "generate failed" });
    expect(await api.balance()).toBe(before);
  });
  it("depth and split: 5001001", async () => {
    const before = await api.balance();
    const depth = await api.post("depth/create-task", { image: corrupt(), format: "2" });
    const split = await api.post("split/create-task", { mesh: [new Blob(["glTF" + "x".repeat(200)]), "bad.glb"] });
    expect((await api.waitFor("depth/query-task", depth.data.task_id as string)).code).toBe(5001001);
    expect((await api.waitFor("split/query-task", split.data.task_id as string, "Token")).code).toBe(5001001);
    expect(await api.balance()).toBe(before);
  });
  it("texturing a GLB whose positions claim more bytes than their buffer view holds: 50010001, refunded", async () => {
    // A valid square but for POSITION's and NORMAL's count of 5, one more than their 48-byte views
    // hold: read as given, the fifth position would be the normals' first bytes.
    const { json, bin } = squareGltf();
    json.accessors[0].count = 5;
    json.accessors[1].count = 5;
    const before = await api.balance();
    const created = await api.post("submit-task", {
      images: png("teapot.png"),
      request_type: "2",
      model: "x3dv1.5",
      mesh: [new Blob([rawGlb(json, bin) as BlobPart]), "overrun.glb"],
      format: "2",
    });
    expect(created.code, JSON.stringify(created)).toBe(200);
    const done = await api.waitFor("query-task", created.data.task_id as string);
    expect(done).toEqual({ code: 50010001, data: {}, msg: "generate failed" });
    expect(await api.balance()).toBe(before);
  });
});
