// Task changes between servers on one PostgreSQL (needs X3D_TEST_DATABASE_URL): this test
// process is server A, with the app's own bus, relay and subscription; server B is a second bus
// and relay with its own connections and origin, as another process has.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { studioTasks, users } from "@/lib/db/schema";
import { TASK_CHANGE_CHANNEL } from "./pg-relay";
import { publishTaskChange } from "./publish";
import { cachedTask } from "../task-cache";
import { until } from "@/test/harness/until";
import type { TaskChange } from "./bus";

const admin = process.env.X3D_TEST_DATABASE_URL;

/** Server A (this process, the app's own modules) and server B (a second bus and relay), on a fresh database. */
async function startServers() {
  const { openTestDatabase } = await import("@/lib/db/test-database.test-helpers");
  const database = await openTestDatabase("live-relay");
  const url = process.env.DATABASE_URL ?? "";
  const { TaskChangeBus } = await import("./bus");
  const { PgRelay } = await import("./pg-relay");
  const { taskChangeRelay } = await import("./publish");
  const { subscribeTaskChanges } = await import("./subscribe");

  // Server B: its own pool for NOTIFY, its own listening connection, its own bus.
  const poolB = new pg.Pool({ connectionString: url, max: 2 });
  const busB = new TaskChangeBus();
  const relayB = new PgRelay({
    connectionString: url,
    origin: "server-b",
    notify: async (channel, payload) => void (await poolB.query("select pg_notify($1, $2)", [channel, payload])),
    retryMs: { first: 50, max: 200 },
  });
  relayB.listen((change) => busB.deliver(change));
  /** What B does on a change of its own (publishTaskChange's two steps, for B's bus and relay). */
  const publishOnB = async (change: TaskChange) => {
    busB.deliver(change);
    await relayB.publish(change);
  };

  const onA: TaskChange[] = [];
  const onB: TaskChange[] = [];
  const stops = [subscribeTaskChanges("ann", (c) => onA.push(c)), busB.subscribe("ann", (c) => onB.push(c))];
  const relayA = taskChangeRelay();
  if (!relayA) throw new Error("DATABASE_URL is set: server A must have a relay");
  const stop = async () => {
    for (const unsubscribe of stops) unsubscribe();
    await Promise.all([relayA.stop(), relayB.stop()]);
    await poolB.end();
    await database.dispose();
  };
  return { relayA, relayB, poolB, publishOnB, onA, onB, stop };
}

describe.skipIf(!admin)("task changes across servers on PostgreSQL (needs X3D_TEST_DATABASE_URL)", () => {
  let servers: Awaited<ReturnType<typeof startServers>>;
  beforeAll(async () => {
    servers = await startServers();
  });
  afterAll(() => servers?.stop());

  const change = (taskId: string, state: TaskChange["state"]): TaskChange => ({
    userId: "ann",
    taskId,
    state,
    settled: state === "failed",
  });
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Listening connections in the database, by application name. */
  const listeners = async () =>
    (
      await servers.poolB.query<{ name: string }>(
        "select application_name as name from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
      )
    ).rows.map((r) => r.name);

  it("one listening connection per server, on the channel", async () => {
    const { relayA, relayB } = servers;
    await Promise.all([relayA.whenListening(), relayB.whenListening()]);
    expect((await listeners()).sort()).toEqual([relayA.applicationName, relayB.applicationName].sort());
    expect(TASK_CHANGE_CHANNEL).toBe("x3d_task_changes");
  });

  it("a change published on A reaches B's subscriber once, and A's own subscriber once (not again through NOTIFY)", async () => {
    const { onA, onB } = servers;
    publishTaskChange(change("t1", "processing"));
    expect(onA).toEqual([change("t1", "processing")]); // at once, in A's process
    await until(() => onB.length === 1, "B to hear A's change", 5_000);
    await pause(300); // A's own notification has come back to A by now, and was skipped
    expect(onB).toEqual([change("t1", "processing")]);
    expect(onA).toHaveLength(1);
  });

  it("a change published on B reaches A's subscriber once, and A's cached row is dropped so A reads the new one", async () => {
    const { poolB, publishOnB, onA, onB } = servers;
    await (await db()).insert(users).values({ id: "ann", email: "ann@example.com" });
    await (
      await db()
    )
      .insert(studioTasks)
      .values({ id: "t2", userId: "ann", kind: "split", serviceTaskId: "s", options: {}, inputs: {}, state: "processing", stateTimes: {} });
    expect((await cachedTask("t2"))?.state).toBe("processing"); // now in A's cache
    // B writes the row (as its refresh would) and announces it.
    await poolB.query("update studio_tasks set state = 'failed' where id = 't2'");
    onA.length = 0;
    onB.length = 0;
    await publishOnB(change("t2", "failed"));
    await until(() => onA.length === 1, "A to hear B's change", 5_000);
    expect(onA).toEqual([change("t2", "failed")]);
    expect((await cachedTask("t2"))?.state).toBe("failed"); // not the cached "processing" of a moment ago
    await pause(300);
    expect(onB).toEqual([change("t2", "failed")]); // B's own, once
    expect(onA).toHaveLength(1);
  });

  it("a listening connection that drops is made again, and changes flow again", async () => {
    const { relayA, poolB, publishOnB, onA } = servers;
    onA.length = 0;
    await poolB.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1", [relayA.applicationName]);
    await until(() => !relayA.listening, "A to notice its connection was cut", 5_000);
    await relayA.whenListening();
    expect(await listeners()).toContain(relayA.applicationName);
    await publishOnB(change("t3", "queueing"));
    await until(() => onA.length === 1, "A to hear B's change after reconnecting", 5_000);
    expect(onA).toEqual([change("t3", "queueing")]);
  });
});
