import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { startServer, type TestServer } from "../harness/server";

// Every URL input (image_url; mesh_url for texture, split and segmentation) fetched from a
// local file server, to success. Private addresses are allowed for this server only.
let server: TestServer;
let api: Api;
let files: http.Server;
let base: string;
const served = new Map<string, Uint8Array>();
const fetchedPaths: string[] = [];

beforeAll(async () => {
  server = await startServer({ X3D_ENGINE_ALLOW_PRIVATE_URLS: "1", X3D_ENGINE_BALANCE: "5000" });
  api = new Api(server.url);
  files = http.createServer((req, res) => {
    const body = served.get(req.url ?? "");
    fetchedPaths.push(req.url ?? "");
    if (!body) return void res.writeHead(404).end();
    res
      .writeHead(200, { "Content-Length": body.byteLength, "Content-Type": req.url?.endsWith(".png") ? "image/png" : "model/gltf-binary" })
      .end(body);
  });
  await new Promise<void>((r) => files.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  served.set("/robot.png", new Uint8Array(await fixture("robot.png").arrayBuffer()));
  // A mesh to serve: a cheap image-to-3D result of the same service.
  const created = await api.post("submit-task", {
    images: [fixture("robot.png"), "robot.png"],
    format: "2",
    model: "x3dv1.5",
    resolution: "512",
    request_type: "1",
    face: "100000",
  });
  const done = await api.waitFor("query-task", created.data.task_id as string);
  served.set("/robot.glb", new Uint8Array(await (await fetch(done.data.url!)).arrayBuffer()));
});
afterAll(async () => {
  files?.close();
  await server?.dispose();
});

async function succeeds(create: string, query: string, fields: Parameters<Api["post"]>[1], path: string): Promise<void> {
  const before = fetchedPaths.filter((p) => p === path).length;
  const created = await api.post(create, fields);
  expect(created.code, JSON.stringify(created)).toBe(200);
  const done = await api.waitFor(query, created.data.task_id as string);
  expect(done.code, JSON.stringify(done)).toBe(200);
  expect(done.data.state).toBe("success");
  expect(fetchedPaths.filter((p) => p === path).length).toBe(before + 1);
  expect((await fetch(done.data.url!)).status).toBe(200);
}

describe("URL inputs are fetched and generate", () => {
  it("depth/create-task with image_url", async () => {
    await succeeds(
      "depth/create-task",
      "depth/query-task",
      { image_url: `${base}/robot.png`, format: "2", model_type: "base" },
      "/robot.png",
    );
  });
  it("submit-task request_type 2 (texture) with mesh_url", async () => {
    await succeeds(
      "submit-task",
      "query-task",
      {
        images: [fixture("robot.png"), "robot.png"],
        request_type: "2",
        model: "x3dv1.5",
        resolution: "512",
        format: "2",
        mesh_url: `${base}/robot.glb`,
      },
      "/robot.glb",
    );
  });
  it("split/create-task with mesh_url", async () => {
    await succeeds("split/create-task", "split/query-task", { mesh_url: `${base}/robot.glb`, format: "2" }, "/robot.glb");
  });
  it("segmentation/create-task with mesh_url", async () => {
    await succeeds(
      "segmentation/create-task",
      "segmentation/query-task",
      { mesh_url: `${base}/robot.glb`, seg_level: "low", format: "2" },
      "/robot.glb",
    );
  });
});
