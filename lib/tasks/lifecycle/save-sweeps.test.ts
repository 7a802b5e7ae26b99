import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db, database } from "@/lib/db";
import { studioTasks, users, type StudioTask } from "@/lib/db/schema";
import { tempDataDir } from "@/test/harness/temp-dir";
import { recordTask } from "../create/record.test-helpers";
import { fakeDerive, fakeFetch, fakeService, forgetCached, success } from "./refresh.test-helpers";
import type { RefreshDeps } from "./refresh";
import { STALE_AFTER_MS, startSaveSweeps, SWEEP_INTERVAL_MS, tasksToSave } from "./save-sweeps";

tempDataDir("save-sweeps-test");

const USER = "user-sweeps";
const NOW = new Date();
let counter = 0;

/** A task in the given state, as the rows of web servers and workers leave it. */
async function task(values: Partial<StudioTask>, serviceTaskId: string | null = `svc-sweep-${counter + 1}`): Promise<string> {
  const id = `sweep-${++counter}`;
  await recordTask({ id, userId: USER, kind: "image-to-3d", serviceTaskId, options: {}, inputs: {}, cost: 5, callbackSecretHash: null });
  await (await db()).update(studioTasks).set(values).where(eq(studioTasks.id, id));
  forgetCached(id);
  return id;
}
const ago = (ms: number) => new Date(NOW.getTime() - ms);

beforeAll(async () => {
  await (await db()).insert(users).values({ id: USER, email: "sweeps@example.com" });
});
afterAll(async () => {
  await (await database()).close();
});

describe("tasksToSave", () => {
  it("takes finished tasks whose result is not saved and running ones nobody asked about lately; nothing else", async () => {
    const due = {
      unsaved: await task({ state: "success", refreshedAt: ago(10) }),
      neverRefreshed: await task({ state: "success" }),
      noDisplayCopy: await task({ state: "success", resultFile: "results/x/result.glb", refreshedAt: ago(1) }),
      stale: await task({ state: "processing", refreshedAt: ago(STALE_AFTER_MS + 1) }),
      staleQueued: await task({ state: "queueing", refreshedAt: ago(STALE_AFTER_MS) }),
    };
    const notDue = {
      leased: await task({ state: "success", refreshedAt: new Date(NOW.getTime() + 60_000) }),
      askedLately: await task({ state: "processing", refreshedAt: ago(STALE_AFTER_MS - 1_000) }),
      failed: await task({ state: "failed", refreshedAt: ago(STALE_AFTER_MS * 2) }),
      settled: await task({ state: "success", resultFile: "results/y/result.glb", displayState: "ready", refreshedAt: ago(60_000) }),
      noDisplayNeeded: await task({ state: "success", resultFile: "results/z/result.exr", displayState: "none" }),
      // A lost create answer waits for its callback: a worker cannot ask the service about it.
      checking: await task({ state: "checking", refreshedAt: ago(STALE_AFTER_MS * 2) }, null),
    };
    const found = await tasksToSave(NOW, 100);
    expect(found.filter((id) => id.startsWith("sweep-")).sort()).toEqual(Object.values(due).sort());
    for (const id of Object.values(notDue)) expect(found).not.toContain(id);
    // At most `limit`, leaving out the ones this worker is busy with.
    expect(await tasksToSave(NOW, 2)).toHaveLength(2);
    const rest = await tasksToSave(NOW, 100, [due.unsaved, due.stale]);
    expect(rest.sort()).toEqual([due.neverRefreshed, due.noDisplayCopy, due.staleQueued].sort());
    // Leave them settled for the next test.
    await (await db()).update(studioTasks).set({ state: "failed" });
  });
});

describe("startSaveSweeps", () => {
  it("saves a finished task's result and display copy within a sweep, and stops when asked", async () => {
    const { service, answers, calls } = fakeService();
    const fetcher = fakeFetch();
    const display = fakeDerive();
    const id = await task({ state: "success", refreshedAt: ago(5_000) }, "svc-sweep-save");
    answers.set("svc-sweep-save", async () => success("svc-sweep-save"));
    const deps: RefreshDeps = { service, now: () => new Date(), fetch: fetcher.impl, deriveDisplay: display.derive };
    const stop = startSaveSweeps(deps);
    try {
      await vi.waitFor(
        async () => {
          const [row] = await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id));
          expect(row).toMatchObject({ resultFile: `results/${id}/result.glb`, displayState: "ready" });
        },
        { timeout: 5 * SWEEP_INTERVAL_MS, interval: 50 },
      );
    } finally {
      await stop();
    }
    expect(calls).toEqual(["queryTask:svc-sweep-save"]);
    expect(display.calls).toHaveLength(1);
  });

  it("a save that ran into a problem waits before this worker tries it again, not every sweep", async () => {
    const { service, answers, calls } = fakeService();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const refused = vi.fn(async () => new Response("expired", { status: 403 })) as unknown as typeof fetch;
    await task({ state: "success", refreshedAt: ago(5_000) }, "svc-sweep-refused");
    answers.set("svc-sweep-refused", async () => success("svc-sweep-refused"));
    const stop = startSaveSweeps({ service, now: () => new Date(), fetch: refused, deriveDisplay: fakeDerive().derive });
    try {
      await vi.waitFor(() => expect(calls.length).toBeGreaterThan(0), { timeout: 5 * SWEEP_INTERVAL_MS, interval: 50 });
      // One refresh: its query, and the queries again for fresh links of the refused result and cover.
      await new Promise((r) => setTimeout(r, SWEEP_INTERVAL_MS / 2));
      expect(calls).toHaveLength(3);
      await new Promise((r) => setTimeout(r, 3 * SWEEP_INTERVAL_MS));
    } finally {
      await stop();
    }
    expect(calls).toHaveLength(3);
  });
});
