// What a crash leaves behind is cleaned up, at the next start and on a timer: tasks charged
// whose id never reached the client, upload folders of dead requests, task folders without
// a task; and finished tasks' files are removed after X3D_ENGINE_RETENTION_HOURS.
import { afterAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { withDatabase } from "../harness/db";
import { startServer, type TestServer } from "../harness/server";

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.dispose())));
const png = () => [fixture("chair.png"), "chair.png"] as [Blob, string];
const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", face: "100000" }; // 5 credits

describe("tasks whose create request died before answering", () => {
  it("a task left `created` for over a minute is failed and refunded at the next start, not run", async () => {
    const server = await startServer({ X3D_ENGINE_MIN_TASK_SECONDS: "30" });
    servers.push(server);
    const api = new Api(server.url);
    const id = (await api.post("submit-task", { images: png(), ...cheap })).data.task_id as string;
    expect(await api.balance()).toBe(995);
    // As if the server died between charging and answering, two minutes ago: the row and the
    // charge are committed, the client never saw the id.
    await server.stop(true);
    await withDatabase(server, (q) =>
      q(
        `update engine_tasks set state = 'created', owner = null, runs = 0, started_at = null, heartbeat_at = null,
           created_at = now() - interval '2 minutes' where id = $1`,
        [id],
      ),
    );
    await server.restart();
    const again = new Api(server.url);
    expect(await again.waitFor("query-task", id, "Bearer", 60_000)).toEqual({ code: 50010001, data: {}, msg: "generate failed" });
    expect(await again.balance()).toBe(1000);
    expect(server.output()).toContain(`failed and refunded 1 task(s) whose create request never answered: ${id}`);
    await server.stop();
    const [row] = await withDatabase(server, (q) => q<{ refunded: boolean; failure: string; runs: number }>("select refunded, failure, runs from engine_tasks where id = $1", [id]));
    expect(row).toEqual({ refunded: true, failure: expect.stringMatching(/create request ended before it answered.*never got this task_id/), runs: 0 });
  });
});
