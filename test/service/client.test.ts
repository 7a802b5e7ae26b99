// The typed client (lib/x3d/client) against the real embedded routes: the same calls the
// studio makes, end to end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { createX3dClient, X3dError, type X3dClient } from "@/lib/x3d/client";
import { FIXTURES } from "../harness/api";
import { CLIENT_ID, CLIENT_SECRET, startServer, type TestServer } from "../harness/server";

let server: TestServer;
let client: X3dClient;
const image = (name: string) => ({ name, type: "image/png", data: new Uint8Array(fs.readFileSync(path.join(FIXTURES, name))) });

beforeAll(async () => {
  server = await startServer();
  client = createX3dClient({ baseUrl: server.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
});
afterAll(() => server?.dispose());

async function until<T extends { state: string }>(poll: () => Promise<T>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const r = await poll();
    if (r.state === "success" || r.state === "failed") return r;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error("task did not finish");
}

describe("lib/x3d client against the embedded service", () => {
  it("submits, polls, downloads, splits the result and reads the balance", async () => {
    const { task_id } = await client.submitTask({
      images: image("robot.png"),
      model: "x3dv1.5",
      resolution: "512",
      request_type: 1,
      format: 2,
      face: 100_000,
    });
    const done = await until(() => client.queryTask(task_id));
    expect(done.state).toBe("success");
    const glb = new Uint8Array(await (await fetch(done.url!)).arrayBuffer());
    expect(Buffer.from(glb.subarray(0, 4)).toString()).toBe("glTF");

    const split = await client.createSplitTask({ mesh: { name: "robot.glb", data: glb }, model: "general", level: "low", format: 2 });
    expect(split.state).toBe("queueing");
    expect((await until(() => client.querySplitTask(split.task_id))).state).toBe("success");
    expect(await client.balance()).toEqual({ totalBalance: 1000 - 5 - 20 });
  });

  it("surfaces service refusals as X3dError with the code and a sentence for users", async () => {
    const err = await client.queryDepthTask("depth_20260101_000000000000000000000000").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(X3dError);
    expect((err as X3dError).code).toBe(10030010);
    expect((err as X3dError).userMessage).toBe("No such task.");
  });

  it("wrong credentials give 40010000", async () => {
    const bad = createX3dClient({ baseUrl: server.url, clientId: CLIENT_ID, clientSecret: "nope" });
    const err = await bad.balance().catch((e: unknown) => e);
    expect((err as X3dError).code).toBe(40010000);
  });
});
