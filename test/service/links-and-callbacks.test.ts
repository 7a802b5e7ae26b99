import { afterAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { closeReceivers, receiver } from "../harness/receiver";
import { freePort, startServer, type TestServer } from "../harness/server";

const servers: TestServer[] = [];
afterAll(async () => {
  closeReceivers();
  await Promise.all(servers.map((s) => s.dispose()));
});
const png = () => [fixture("chair.png"), "chair.png"] as [Blob, string];
const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", format: "2", face: "100000" };

const until = async (cond: () => boolean, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe("result links", () => {
  it("use X3D_ENGINE_PUBLIC_URL whatever the Host header, work without auth, and expire after the TTL", async () => {
    const port = await freePort();
    const server = await startServer({ PORT: String(port), X3D_ENGINE_URL_TTL: "2", X3D_ENGINE_PUBLIC_URL: `http://localhost:${port}` });
    servers.push(server);
    const api = new Api(server.url);
    const id = (await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string;
    await api.waitFor("query-task", id);
    const res = await fetch(`${server.url}/open-api/v1/query-task?task_id=${id}`, {
      headers: { Authorization: `Bearer ${await api.getToken()}`, Host: "api.live-vendor.example" },
    });
    const { data } = (await res.json()) as { data: { url: string; cover_url: string } };
    expect(data.url.startsWith(`http://localhost:${port}/open-api/v1/files/${id}/`)).toBe(true);
    const file = await fetch(data.url);
    expect(file.status).toBe(200);
    expect(file.headers.get("access-control-allow-origin")).toBe("*");
    const forged = new URL(data.url);
    forged.searchParams.set("t", String(Number(forged.searchParams.get("t")) + 1000));
    expect((await fetch(forged)).status).toBe(403);
    await new Promise((r) => setTimeout(r, 3100));
    expect((await fetch(data.url)).status).toBe(403);
    expect((await fetch(data.cover_url)).status).toBe(403);
  });
});

describe("callbacks", () => {
  it("POST the query body on success and on failure; three attempts in all against a failing receiver, with back-off; a hanging receiver blocks nobody", async () => {
    const server = await startServer({ X3D_ENGINE_ALLOW_PRIVATE_URLS: "1", X3D_ENGINE_CALLBACK_BACKOFF_MS: "300" });
    servers.push(server);
    const api = new Api(server.url);
    const [good, failing, hanging, told] = await Promise.all([receiver(200), receiver(500), receiver("hang"), receiver(204)]);
    const corrupt = new Uint8Array(3000).fill(7);
    corrupt.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const broken = (await api.post("submit-task", { images: [new Blob([corrupt]), "x.png"], ...cheap, callback_url: told.url })).data
      .task_id as string;
    const hang = (await api.post("submit-task", { images: png(), ...cheap, callback_url: hanging.url })).data.task_id as string;
    const ok = (await api.post("submit-task", { images: png(), ...cheap, callback_url: good.url })).data.task_id as string;
    const bad = (await api.post("submit-task", { images: png(), ...cheap, callback_url: failing.url })).data.task_id as string;

    await until(() => good.hits.length === 1 && failing.hits.length === 3 && hanging.hits.length >= 1 && told.hits.length === 1);
    expect(told.hits[0]!.body).toEqual({ code: 50010001, data: { task_id: broken, state: "failed" }, msg: "generate failed" });
    expect(good.hits[0]!.body.code).toBe(200);
    expect(good.hits[0]!.body.data.task_id).toBe(ok);
    expect(good.hits[0]!.body.data.state).toBe("success");
    expect((await fetch(good.hits[0]!.body.data.url!)).status).toBe(200);
    expect(failing.hits.every((h) => h.body.data.task_id === bad)).toBe(true);
    const gaps = failing.hits.slice(1).map((h, i) => h.at - failing.hits[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(250);
    expect(gaps[1]).toBeGreaterThan(gaps[0]!);
    expect(hanging.hits[0]!.body.data.task_id).toBe(hang);
    await new Promise((r) => setTimeout(r, 2000));
    expect(failing.hits).toHaveLength(3);
    expect(good.hits).toHaveLength(1);
  });

  it("private addresses are refused for mesh_url and callback_url without X3D_ENGINE_ALLOW_PRIVATE_URLS", async () => {
    const server = await startServer({ X3D_ENGINE_CALLBACK_BACKOFF_MS: "100" });
    servers.push(server);
    const api = new Api(server.url);
    const hook = await receiver(200);
    const meshHost = await receiver(200);
    const id = (
      await api.post("submit-task", {
        images: png(),
        request_type: "2",
        model: "x3dv1.5",
        mesh_url: meshHost.url.replace("/hook", "/m.glb"),
        callback_url: hook.url,
      })
    ).data.task_id as string;
    expect(await api.waitFor("query-task", id)).toEqual({ code: 50010001, data: {}, msg: "generate failed" });
    expect(meshHost.hits).toHaveLength(0);
    expect(await api.balance()).toBe(1000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(hook.hits).toHaveLength(0);
  });
});
