// The admin page's list of the service's errors (PGlite in a temporary DATA_DIR).
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { serviceErrors, studioTasks, users } from "@/lib/db/schema";
import { X3dError } from "@/lib/x3d/client";
import { confirmTask, prepareTask } from "../create/record";
import { hashSecret } from "./callback";
import { recentServiceErrors, recordServiceError } from "./service-errors";
import { tempDataDir } from "@/test/harness/temp-dir";

tempDataDir("service-errors-test");

afterAll(async () => {
  await (await database()).close();
});
beforeEach(async () => {
  await (await db()).delete(serviceErrors);
});

const all = async () => (await db()).select().from(serviceErrors).orderBy(asc(serviceErrors.id));

describe("recordServiceError", () => {
  it("notes the service's code and sentence, what the studio was doing, and the task", async () => {
    await recordServiceError("query", new X3dError({ code: 10030010, msg: "task not found", kind: "service" }), "t1");
    await recordServiceError("create", new X3dError({ code: 0, msg: "connect ECONNREFUSED", kind: "network", mayHaveReached: false }));
    await recordServiceError("copy", "a thrown string");
    expect((await all()).map(({ operation, code, message, taskId }) => ({ operation, code, message, taskId }))).toEqual([
      { operation: "query", code: 10030010, message: "x3d 10030010: task not found", taskId: "t1" },
      { operation: "create", code: null, message: "x3d 0: connect ECONNREFUSED", taskId: null },
      { operation: "copy", code: null, message: "a thrown string", taskId: null },
    ]);
  });

  it("leaves out the studio's own check of a request, and keeps 500 characters of a message", async () => {
    await recordServiceError("create", new X3dError({ code: 10031002, msg: "face", kind: "input" }));
    expect(await all()).toEqual([]);
    await recordServiceError("balance", new Error("x".repeat(600)));
    expect((await all())[0]?.message).toBe("x".repeat(500));
  });

  it("drops all but the newest 500 every 50 errors", async () => {
    const rows = Array.from({ length: 548 }, (_, i) => ({ operation: "query", message: `old ${i}` }));
    await (await db()).insert(serviceErrors).values(rows);
    const before = await all();
    const first = before[0]!.id;
    // Counting up to the next id that is a multiple of 50.
    let next = before.at(-1)!.id + 1;
    while (next % 50 !== 0) {
      await recordServiceError("query", new Error("filler"));
      next++;
    }
    expect((await all())[0]?.id).toBe(first);
    await recordServiceError("query", new Error("the fiftieth"));
    const after = await all();
    expect(after.at(-1)).toMatchObject({ id: next, message: "the fiftieth" });
    expect(after[0]?.id).toBe(next - 500);
    expect(after).toHaveLength(after.at(-1)!.id - after[0]!.id + 1);
  });
});

describe("recentServiceErrors", () => {
  it("lists the newest first, 20 unless told", async () => {
    await (await db()).insert(serviceErrors).values(Array.from({ length: 25 }, (_, i) => ({ operation: "copy", message: `e${i}` })));
    const recent = await recentServiceErrors();
    expect(recent).toHaveLength(20);
    expect(recent[0]?.message).toBe("e24");
    expect(recent[19]?.message).toBe("e5");
    expect((await recentServiceErrors(2)).map((e) => e.message)).toEqual(["e24", "e23"]);
  });
});

describe("prepareTask and confirmTask", () => {
  it("mint an id and a callback URL whose secret only the hash of is kept", () => {
    const a = prepareTask();
    const [, secret] = /\/api\/callbacks\/[^/]+\/([^/]+)$/.exec(a.callbackUrl) ?? [];
    expect(a.callbackUrl).toContain(`/api/callbacks/${a.id}/`);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.callbackSecretHash).toBe(hashSecret(secret!));
    expect(a.callbackSecretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(prepareTask().id).not.toBe(a.id);
  });

  it("confirm a checking task with the service's id, once", async () => {
    await (await db()).insert(users).values({ id: "rec-user", email: "rec@example.com" });
    const insert = (id: string, state: "checking" | "created", serviceTaskId: string | null) =>
      db().then((d) =>
        d.insert(studioTasks).values({
          id,
          userId: "rec-user",
          kind: "split",
          serviceTaskId,
          options: {},
          inputs: {},
          state,
          stateTimes: { [state]: "2031-01-01T00:00:00.000Z" },
        }),
      );
    const row = async (id: string) => (await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id)))[0];
    await insert("rec-1", "checking", null);
    await confirmTask("rec-1", "svc-1");
    const confirmed = await row("rec-1");
    expect(confirmed).toMatchObject({ serviceTaskId: "svc-1", state: "created" });
    // The checking time gives way to the time it was confirmed: now.
    expect(Math.abs(Date.parse(confirmed!.stateTimes.created!) - Date.now())).toBeLessThan(60_000);
    expect(Object.keys(confirmed!.stateTimes)).toEqual(["created"]);
    await confirmTask("rec-1", "svc-other");
    expect((await row("rec-1"))?.serviceTaskId).toBe("svc-1");
    await insert("rec-2", "created", "svc-2");
    await confirmTask("rec-2", "svc-x");
    expect(await row("rec-2")).toMatchObject({ serviceTaskId: "svc-2", stateTimes: { created: "2031-01-01T00:00:00.000Z" } });
  });
});
