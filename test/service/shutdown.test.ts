// SIGTERM stops the server within 10 s with exit code 0, putting unfinished work back for
// the next start instead of losing it or waiting for it.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { withDatabase } from "../harness/db";
import { startServer, type TestServer } from "../harness/server";
import { storedKeys } from "../harness/stored-files";
import { until } from "../harness/until";

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.dispose())));
const png = () => [fixture("chair.png"), "chair.png"] as [Blob, string];
const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", face: "100000" }; // 5 credits

describe("SIGTERM", () => {
  it("an idle server exits at once with code 0", async () => {
    const server = await startServer();
    servers.push(server);
    await new Api(server.url).balance();
    const exit = await server.stop();
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.ms).toBeLessThan(3_000);
    expect(server.output()).toMatch(/SIGTERM: stopping[\s\S]*stopped in \d+ ms/);
  });

  it("while a task is processing: exit 0 within 10 s, the task back in the queue, done after the restart, charged once", async () => {
    // The task would go on processing for 20 s: the stop cannot wait for it.
    const server = await startServer({ X3D_ENGINE_MIN_TASK_SECONDS: "20" });
    servers.push(server);
    const api = new Api(server.url);
    const id = (await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string;
    await until(async () => ((await api.get(`query-task?task_id=${id}`)).data as { state: string }).state === "processing", "processing");

    const exit = await server.stop();
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.ms).toBeLessThan(10_000);
    expect(server.output()).toContain(`put 1 running task(s) back in the queue: ${id}`);
    const [row] = await withDatabase(server, (q) =>
      q<{ state: string; owner: string | null; refunded: boolean }>("select state, owner, refunded from engine_tasks where id = $1", [id]),
    );
    expect(row).toEqual({ state: "queueing", owner: null, refunded: false });

    await server.restart();
    const again = new Api(server.url);
    expect((await again.waitFor("query-task", id, "Bearer", 60_000)).data.state).toBe("success");
    expect(await again.balance()).toBe(995);
  });

  it("during a studio result copy: exit 0 within 10 s, the copy stopped and done by a later refresh", async () => {
    // A stand-in for the live service whose result download hangs until `hang` is cleared.
    let hang = true;
    let downloads = 0;
    const service = http.createServer((req, res) => {
      const url = new URL(req.url!, "http://service");
      const send = (body: unknown) => res.setHeader("content-type", "application/json").end(JSON.stringify(body));
      if (url.pathname === "/open-api/v1/auth/token") {
        return send({ code: 200, msg: "success", message: "success", data: { accessToken: "token", tokenType: "Bearer", nonce: "n" } });
      }
      if (url.pathname === "/open-api/v1/depth/query-task") {
        const taskId = url.searchParams.get("task_id");
        return send({
          code: 200,
          msg: "success",
          data: {
            task_id: taskId,
            state: "success",
            id: `${taskId}_0`,
            cover_url: `${base}/files/cover.png`,
            url: `${base}/files/result.png`,
          },
        });
      }
      if (!url.pathname.startsWith("/files/")) return res.writeHead(404).end();
      downloads++;
      const bytes = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/chair.png"));
      res.writeHead(200, { "content-type": "image/png", "content-length": String(bytes.length) });
      if (hang) res.write(bytes.subarray(0, 100));
      else res.end(bytes);
    });
    await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(service.address() as { port: number }).port}`;
    try {
      const server = await startServer({ X3D_BASE_URL: base });
      servers.push(server);
      await server.stop();
      // A studio task the service reports done, and its callback address.
      const secret = crypto.randomBytes(16).toString("hex");
      await withDatabase(server, async (q) => {
        await q("insert into users (id, email) values ('artist', 'artist@example.com')");
        await q(
          `insert into studio_tasks (id, user_id, kind, service_task_id, options, inputs, state, state_times, callback_secret_hash)
           values ('copying', 'artist', 'depth', 'depth_20260101_000000000000000000000001', '{}', '{}', 'processing', '{}', $1)`,
          [crypto.createHash("sha256").update(secret).digest("hex")],
        );
      });
      await server.restart();
      const callback = () => fetch(`${server.url}/api/callbacks/copying/${secret}`, { method: "POST" });
      expect((await callback()).status).toBe(200);
      await until(() => downloads > 0, "the copy to start");

      const exit = await server.stop();
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit!.ms).toBeLessThan(10_000);
      // Nothing half-copied is left: neither in the store nor in the download's scratch folder.
      expect(await storedKeys(server, "studio/results/copying")).toEqual([]);
      const scratch = path.join(server.dataDir, "studio", "downloads");
      if (fs.existsSync(scratch)) expect(fs.readdirSync(scratch).filter((f) => f.endsWith(".part"))).toEqual([]);
      const [stopped] = await withDatabase(server, (q) =>
        q<{ result_file: string | null; refreshed_at: Date }>("select result_file, refreshed_at from studio_tasks where id = 'copying'"),
      );
      expect(stopped!.result_file).toBeNull();
      // The copy's lease was given back: the next refresh need not wait 5 minutes for it.
      expect(stopped!.refreshed_at.getTime()).toBeLessThan(Date.now());

      hang = false;
      await server.restart();
      expect((await callback()).status).toBe(200);
      await until(
        async () => (await storedKeys(server, "studio/results/copying")).includes("studio/results/copying/result.png"),
        "the copy to finish",
      );
      await server.stop();
      const [done] = await withDatabase(server, (q) =>
        q<{ result_file: string | null; cover_file: string | null }>(
          "select result_file, cover_file from studio_tasks where id = 'copying'",
        ),
      );
      expect(done).toEqual({ result_file: "results/copying/result.png", cover_file: "results/copying/cover.png" });
    } finally {
      service.closeAllConnections();
      service.close();
    }
  });
});
