import { afterAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { startServer, type TestServer } from "../harness/server";

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.dispose())));
const png = () => [fixture("chair.png"), "chair.png"] as [Blob, string];
const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", face: "100000" }; // 5 credits

describe("credits", () => {
  it("concurrent submissions against a small balance: exactly what it covers is accepted, never negative", async () => {
    const server = await startServer({ X3D_ENGINE_BALANCE: "200", X3D_ENGINE_MIN_TASK_SECONDS: "60" });
    servers.push(server);
    const api = new Api(server.url);
    const answers = await Promise.all(Array.from({ length: 12 }, () => api.post("submit-task", { images: png() }))); // 90 each
    const accepted = answers.filter((a) => a.code === 200);
    const refused = answers.filter((a) => a.code === 30010000);
    expect(accepted).toHaveLength(2);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.data).toEqual({});
    expect(refused[0]!.msg).toMatch(/^balance is not enough: this task costs 90 credits and the balance is 20$/);
    expect(await api.balance()).toBe(20);
  });
});

describe("per-client concurrency", () => {
  it("at most X3D_ENGINE_CONCURRENCY process at once, the rest queue, all finish", async () => {
    const server = await startServer({ X3D_ENGINE_CONCURRENCY: "2", X3D_ENGINE_MIN_TASK_SECONDS: "3" });
    servers.push(server);
    const api = new Api(server.url);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string);
    let maxProcessing = 0;
    let sawQueueing = false;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const states = await Promise.all(
        ids.map(async (id) => ((await api.get(`query-task?task_id=${id}`)).data as { state: string }).state),
      );
      maxProcessing = Math.max(maxProcessing, states.filter((s) => s === "processing").length);
      sawQueueing ||= states.includes("queueing");
      if (states.every((s) => s === "success")) break;
      expect(states).not.toContain("failed");
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(maxProcessing).toBe(2);
    expect(sawQueueing).toBe(true);
  });
});

describe("timeouts", () => {
  it("a task still processing after X3D_ENGINE_TASK_TIMEOUT fails with 50010001 and is refunded", async () => {
    const server = await startServer({ X3D_ENGINE_TASK_TIMEOUT: "1", X3D_ENGINE_MIN_TASK_SECONDS: "5" });
    servers.push(server);
    const api = new Api(server.url);
    const id = (await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string;
    expect(await api.balance()).toBe(995);
    expect(await api.waitFor("query-task", id)).toEqual({ code: 50010001, data: {}, msg: "generate failed" });
    expect(await api.balance()).toBe(1000);
  });
});

describe("restart", () => {
  it("a task cut off mid-processing and a queued one resume after a hard restart; charged once", async () => {
    // With PostgreSQL a stopped server's tasks are resumed once their lease runs out.
    const server = await startServer({ X3D_ENGINE_CONCURRENCY: "1", X3D_ENGINE_MIN_TASK_SECONDS: "4", X3D_ENGINE_LEASE_SECONDS: "3" });
    servers.push(server);
    const api = new Api(server.url);
    const a = (await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string;
    const b = (await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string;
    for (let i = 0; i < 100; i++) {
      if (((await api.get(`query-task?task_id=${a}`)).data as { state: string }).state === "processing") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await server.stop(true);
    await server.restart();
    const api2 = new Api(server.url);
    expect((await api2.waitFor("query-task", a)).data.state).toBe("success");
    expect((await api2.waitFor("query-task", b)).data.state).toBe("success");
    expect(await api2.balance()).toBe(990);
    expect(server.output()).toContain("resumed");
  });
});
