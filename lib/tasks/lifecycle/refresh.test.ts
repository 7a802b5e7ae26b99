import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db, database } from "@/lib/db";
import { studioTasks, users, type StudioTask, type StudioTaskKind } from "@/lib/db/schema";
import { storedPath } from "@/lib/storage/storage.test-helpers";
import { X3dError } from "@/lib/x3d/client";
import { recordTask } from "../create/record.test-helpers";
import type { DeriveDisplay } from "./display-copy";
import { fakeDerive, fakeFetch, fakeService, forgetCached, forgetInflight, success } from "./refresh.test-helpers";
import { COPY_LEASE_MS, REFRESH_INTERVAL_MS, refreshTask, releaseLeasesAtStart, type RefreshDeps } from "./refresh";
import { isSettled } from "../model/settled";
import { tempDataDir } from "@/test/harness/temp-dir";

// A throwaway database and storage folder: serverEnv() reads DATA_DIR on first use.
tempDataDir("refresh-test");

const USER = "user-refresh";
let clock = Date.parse("2030-01-01T00:00:00Z");
let counter = 0;

async function newTask(kind: StudioTaskKind = "image-to-3d") {
  const id = `task-${++counter}`;
  await recordTask({
    id,
    userId: USER,
    kind,
    serviceTaskId: `svc-${counter}`,
    options: {},
    inputs: {},
    cost: 10,
    callbackSecretHash: null,
  });
  return { id, serviceTaskId: `svc-${counter}` };
}

/**
 * A split task whose result is stored and whose display copy is not made yet (as a restart
 * leaves it), with `values` on top; its cached row forgotten.
 */
async function storedResultTask(values: Partial<StudioTask> = {}): Promise<string> {
  const { id } = await newTask("split");
  await (
    await db()
  )
    .update(studioTasks)
    .set({ state: "success", resultFile: `results/${id}/result.zip`, ...values })
    .where(eq(studioTasks.id, id));
  fs.mkdirSync(storedPath(`results/${id}`), { recursive: true });
  fs.writeFileSync(storedPath(`results/${id}/result.zip`), "zip");
  forgetCached(id);
  return id;
}

const row = async (id: string) => (await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id)))[0]!;
function deps(service: RefreshDeps["service"], doFetch: typeof fetch = fakeFetch().impl, deriveDisplay = fakeDerive().derive): RefreshDeps {
  return { service, now: () => new Date(clock), fetch: doFetch, deriveDisplay };
}

beforeAll(async () => {
  await (await db()).insert(users).values({ id: USER, email: "refresh@example.com" });
});
afterAll(async () => {
  await (await database()).close();
});
beforeEach(() => {
  clock += 60_000;
  vi.restoreAllMocks();
});

describe("refreshTask", () => {
  it("lets concurrent viewers share one service call", async () => {
    const { service, answers, calls } = fakeService();
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => {
      await new Promise((r) => setTimeout(r, 50));
      return { task_id: serviceTaskId, state: "processing" };
    });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => refreshTask(id, {}, deps(service))));
    expect(calls).toEqual([`queryTask:${serviceTaskId}`]);
    expect(outcomes.map((o) => o?.task.state)).toEqual(Array(5).fill("processing"));
  });

  it("asks the service at most once per interval, also when another instance refreshed", async () => {
    const { service, answers, calls } = fakeService();
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => ({ task_id: serviceTaskId, state: "queueing" }));
    await refreshTask(id, {}, deps(service));
    clock += REFRESH_INTERVAL_MS - 1;
    await refreshTask(id, {}, deps(service));
    expect(calls).toHaveLength(1);
    clock += 1;
    await refreshTask(id, {}, deps(service));
    expect(calls).toHaveLength(2);
    // Another process wrote refreshedAt just now: this one keeps off.
    clock += 10_000;
    await (
      await db()
    )
      .update(studioTasks)
      .set({ refreshedAt: new Date(clock - 1000) })
      .where(eq(studioTasks.id, id));
    await refreshTask(id, {}, deps(service));
    expect(calls).toHaveLength(2);
    // A callback does not wait for the interval.
    await refreshTask(id, { minIntervalMs: 0 }, deps(service));
    expect(calls).toHaveLength(3);
  });

  it("keeps the first time each state was seen", async () => {
    const { service, answers } = fakeService();
    const { id, serviceTaskId } = await newTask();
    const created = (await row(id)).stateTimes.created;
    answers.set(serviceTaskId, async () => ({ task_id: serviceTaskId, state: "processing" }));
    await refreshTask(id, {}, deps(service));
    const first = new Date(clock).toISOString();
    clock += 5_000;
    await refreshTask(id, {}, deps(service));
    expect((await row(id)).stateTimes).toEqual({ created, processing: first });
  });

  it("dates a state by the service's answer, not by the question: stateTimes is when the studio learned it", async () => {
    const { service, answers } = fakeService();
    const { id, serviceTaskId } = await newTask();
    const asked = clock;
    answers.set(serviceTaskId, async () => {
      clock += 700; // the service took 0.7 s to answer
      return { task_id: serviceTaskId, state: "processing" };
    });
    await refreshTask(id, {}, deps(service));
    expect((await row(id)).stateTimes.processing).toBe(new Date(asked + 700).toISOString());
    clock += REFRESH_INTERVAL_MS;
    const failedAsked = clock;
    answers.set(serviceTaskId, async () => {
      clock += 400;
      throw new X3dError({ code: 50010001, msg: "generate failed", kind: "service" });
    });
    await refreshTask(id, {}, deps(service));
    expect((await row(id)).stateTimes.failed).toBe(new Date(failedAsked + 400).toISOString());
  });

  it("copies the result and cover once, then never asks the service again", async () => {
    const { service, answers, calls } = fakeService();
    const fetcher = fakeFetch(30);
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => success(serviceTaskId));
    const outcome = await refreshTask(id, {}, deps(service, fetcher.impl));
    expect(outcome?.task).toMatchObject({
      state: "success",
      resultFile: `results/${id}/result.glb`,
      coverFile: `results/${id}/cover.webp`,
    });
    expect(fs.readFileSync(storedPath(outcome!.task.resultFile!), "utf8")).toBe("glb-bytes");
    expect(fs.readFileSync(storedPath(outcome!.task.coverFile!), "utf8")).toBe("cover-bytes");
    expect(fetcher.urls).toHaveLength(2);
    clock += 60_000;
    await refreshTask(id, { minIntervalMs: 0 }, deps(service, fetcher.impl));
    expect(calls).toHaveLength(1);
    expect(fetcher.urls).toHaveLength(2);
  });

  it("copies once when two instances see the success at the same time", async () => {
    const { service, answers, calls } = fakeService();
    const fetcher = fakeFetch(100);
    const { id, serviceTaskId } = await newTask("split");
    answers.set(serviceTaskId, async () => success(serviceTaskId, "http://svc.test/files/x/result.zip?auth_key=k"));
    const first = refreshTask(id, {}, deps(service, fetcher.impl));
    await vi.waitFor(() => expect(fetcher.urls).toHaveLength(1));
    // A second process (no shared promise) gets a callback while the first copies: the lease keeps it off.
    forgetInflight(id);
    clock += 1_000;
    const second = await refreshTask(id, { minIntervalMs: 0 }, deps(service, fetcher.impl));
    expect(second?.task.resultFile).toBeNull();
    expect((await first)?.task.resultFile).toBe(`results/${id}/result.zip`);
    expect(calls).toEqual([`querySplitTask:${serviceTaskId}`]);
    expect(fetcher.urls).toHaveLength(2);
  });

  it("replaces a refused link by querying again, in the same refresh, for the missing file only", async () => {
    const { service, answers, calls } = fakeService();
    const fetcher = fakeFetch();
    const { id, serviceTaskId } = await newTask("depth");
    let queries = 0;
    // The first answer's result link has expired by the time it is fetched; the next one is fresh.
    answers.set(serviceTaskId, async () =>
      success(serviceTaskId, `http://svc.test/files/${++queries === 1 ? "expired" : "x"}/result.png?auth_key=k`),
    );
    const outcome = await refreshTask(id, {}, deps(service, fetcher.impl));
    expect(outcome?.problem).toBeUndefined();
    expect(outcome?.task.resultFile).toBe(`results/${id}/result.png`);
    expect(calls).toEqual([`queryDepthTask:${serviceTaskId}`, `queryDepthTask:${serviceTaskId}`]);
    // Cover first (small, its link fresh), then the refused result, then the result again: the cover is not fetched twice.
    expect(fetcher.urls.map((u) => new URL(u).pathname)).toEqual([
      "/files/x/cover.webp",
      "/files/expired/result.png",
      "/files/x/result.png",
    ]);
  });

  it("keeps the cover when the result cannot be copied yet, and fetches only the result next time", async () => {
    const { service, answers, calls } = fakeService();
    const fetcher = fakeFetch();
    const { id, serviceTaskId } = await newTask("depth");
    answers.set(serviceTaskId, async () => success(serviceTaskId, "http://svc.test/files/expired/result.png?auth_key=k"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const failed = await refreshTask(id, {}, deps(service, fetcher.impl));
    expect(failed?.problem).toMatch(/could not be saved/);
    expect(failed?.task).toMatchObject({ state: "success", resultFile: null, coverFile: `results/${id}/cover.webp` });
    expect(isSettled(failed!.task)).toBe(false);
    expect(calls).toHaveLength(3); // the first answer and two fresh links, all refused
    answers.set(serviceTaskId, async () => success(serviceTaskId, "http://svc.test/files/x/result.png?auth_key=k"));
    fetcher.urls.length = 0;
    clock += REFRESH_INTERVAL_MS;
    const retried = await refreshTask(id, {}, deps(service, fetcher.impl));
    expect(retried?.task.resultFile).toBe(`results/${id}/result.png`);
    expect(fetcher.urls.map((u) => new URL(u).pathname)).toEqual(["/files/x/result.png"]);
  });

  it("finishes a copy whose links live 2 s when a slow body outlasts them", async () => {
    const { service, answers, calls } = fakeService();
    const { id, serviceTaskId } = await newTask();
    // Links expire 2 s (real time) after the query signs them, like X3D_ENGINE_URL_TTL=2.
    answers.set(serviceTaskId, async () => {
      const t = Date.now() + 2_000;
      return {
        task_id: serviceTaskId,
        state: "success",
        url: `http://svc.test/r/result.glb?t=${t}`,
        cover_url: `http://svc.test/r/cover.webp?t=${t}`,
      };
    });
    const fetched: string[] = [];
    const slowFetch = (async (input: string | URL | Request) => {
      const url = new URL(String(input));
      fetched.push(url.pathname);
      if (Date.now() > Number(url.searchParams.get("t"))) return new Response("expired", { status: 403 });
      // The cover's body trickles in for 2.5 s: the result link signed with it has expired by then.
      const slow = url.pathname.endsWith("cover.webp") && fetched.length === 1;
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          if (slow) await new Promise((r) => setTimeout(r, 2_500));
          controller.enqueue(new TextEncoder().encode(`${url.pathname} bytes`));
          controller.close();
        },
      });
      return new Response(body);
    }) as typeof fetch;
    const outcome = await refreshTask(id, {}, deps(service, slowFetch));
    expect(outcome?.problem).toBeUndefined();
    expect(fs.readFileSync(storedPath(outcome!.task.resultFile!), "utf8")).toBe("/r/result.glb bytes");
    expect(fs.readFileSync(storedPath(outcome!.task.coverFile!), "utf8")).toBe("/r/cover.webp bytes");
    expect(fetched).toEqual(["/r/cover.webp", "/r/result.glb", "/r/result.glb"]);
    expect(calls).toHaveLength(2);
  });

  it("frees a copy lease left by a crashed instance once it runs out", async () => {
    const { service, answers, calls } = fakeService();
    const { id, serviceTaskId } = await newTask("segmentation");
    answers.set(serviceTaskId, async () => success(serviceTaskId));
    await (
      await db()
    )
      .update(studioTasks)
      .set({ state: "success", refreshedAt: new Date(clock + COPY_LEASE_MS) })
      .where(eq(studioTasks.id, id));
    await refreshTask(id, { minIntervalMs: 0 }, deps(service));
    expect(calls).toHaveLength(0);
    clock += COPY_LEASE_MS;
    const outcome = await refreshTask(id, { minIntervalMs: 0 }, deps(service));
    expect(outcome?.task.resultFile).toBe(`results/${id}/result.glb`);
    expect(calls).toEqual([`querySegmentationTask:${serviceTaskId}`]);
  });

  it("records a failure with its code and stops asking", async () => {
    const { service, answers, calls } = fakeService();
    const { id, serviceTaskId } = await newTask("texture");
    answers.set(serviceTaskId, async () => {
      throw new X3dError({ code: 50010001, msg: "generate failed", kind: "service" });
    });
    const outcome = await refreshTask(id, {}, deps(service));
    expect(outcome?.task).toMatchObject({ state: "failed", errorCode: 50010001 });
    expect(outcome?.task.stateTimes.failed).toBe(new Date(clock).toISOString());
    clock += 60_000;
    await refreshTask(id, { minIntervalMs: 0 }, deps(service));
    expect(calls).toEqual([`queryTask:${serviceTaskId}`]);
  });

  // The contract's failure codes: 50010001 for image-to-3D (texture is one), 5001001 for split, depth and segmentation.
  it.each([
    ["image-to-3d", 50010001, "queryTask"],
    ["split", 5001001, "querySplitTask"],
    ["depth", 5001001, "queryDepthTask"],
    ["segmentation", 5001001, "querySegmentationTask"],
  ] as const)("settles a failed %s task with code %i and stops asking", async (kind, code, query) => {
    const { service, answers, calls } = fakeService();
    const { id, serviceTaskId } = await newTask(kind);
    answers.set(serviceTaskId, async () => {
      throw new X3dError({ code, msg: "generate failed", kind: "service" });
    });
    const outcome = await refreshTask(id, {}, deps(service));
    expect(outcome?.task).toMatchObject({ state: "failed", errorCode: code });
    expect(isSettled(outcome!.task)).toBe(true);
    clock += 60_000;
    await refreshTask(id, { minIntervalMs: 0 }, deps(service));
    expect(calls).toEqual([`${query}:${serviceTaskId}`]);
  });

  it("reports other service errors without changing the task", async () => {
    const { service, answers } = fakeService();
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => {
      throw new X3dError({ code: 10000000, msg: "network failure", kind: "network" });
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const outcome = await refreshTask(id, {}, deps(service));
    expect(outcome?.task.state).toBe("created");
    expect(outcome?.problem).toMatch(/internal error/);
  });

  it("derives the display copy once the result is stored, and settles only then", async () => {
    const { service, answers, calls } = fakeService();
    const display = fakeDerive({ preview: true });
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => success(serviceTaskId));
    const outcome = await refreshTask(id, {}, deps(service, fakeFetch().impl, display.derive));
    expect(display.calls).toEqual([{ input: storedPath(`results/${id}/result.glb`), format: "glb" }]);
    expect(outcome?.task).toMatchObject({
      displayState: "ready",
      displayFile: `results/${id}/display.glb`,
      previewFile: `results/${id}/preview.glb`,
    });
    expect(isSettled(outcome!.task)).toBe(true);
    // The original is still the file the service sent, byte for byte.
    expect(fs.readFileSync(storedPath(outcome!.task.resultFile!), "utf8")).toBe("glb-bytes");
    clock += 60_000;
    await refreshTask(id, { minIntervalMs: 0 }, deps(service, fakeFetch().impl, display.derive));
    expect(display.calls).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  it("derives a display copy left undone (e.g. by a restart) on the next poll, without asking the service", async () => {
    const { service, calls } = fakeService();
    const display = fakeDerive();
    const id = await storedResultTask();
    expect(isSettled(await row(id))).toBe(false);
    const outcome = await refreshTask(id, {}, deps(service, fakeFetch().impl, display.derive));
    expect(display.calls.map((c) => c.format)).toEqual(["zip"]);
    expect(outcome?.task).toMatchObject({ displayState: "ready", previewFile: null });
    expect(calls).toHaveLength(0);
  });

  it("settles with the original when the display copy fails, and gives depth images none", async () => {
    const { service, answers } = fakeService();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = fakeDerive({ fail: true });
    const mesh = await newTask();
    answers.set(mesh.serviceTaskId, async () => success(mesh.serviceTaskId));
    const failed = await refreshTask(mesh.id, {}, deps(service, fakeFetch().impl, broken.derive));
    expect(failed?.task).toMatchObject({ displayState: "failed", displayFile: null });
    expect(isSettled(failed!.task)).toBe(true);

    const unused = fakeDerive();
    const depth = await newTask("depth");
    answers.set(depth.serviceTaskId, async () => success(depth.serviceTaskId, "http://svc.test/files/x/result.exr?auth_key=k"));
    const image = await refreshTask(depth.id, {}, deps(service, fakeFetch().impl, unused.derive));
    expect(image?.task).toMatchObject({ displayState: "none", resultFile: `results/${depth.id}/result.exr` });
    expect(unused.calls).toHaveLength(0);
  });

  it("leaves a display copy stopped by the shutdown undone (not failed), for the next refresh", async () => {
    const { service, answers } = fakeService();
    const stopping = new AbortController();
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => success(serviceTaskId));
    const stopped: DeriveDisplay = async (_input, _format, _outDir, signal) => {
      stopping.abort(new Error("the server is shutting down"));
      throw signal?.reason as Error;
    };
    const outcome = await refreshTask(id, {}, { ...deps(service, fakeFetch().impl, stopped), signal: stopping.signal });
    expect(outcome?.task).toMatchObject({ resultFile: `results/${id}/result.glb`, displayState: null });
    expect(isSettled(outcome!.task)).toBe(false);

    const display = fakeDerive();
    expect((await refreshTask(id, {}, deps(service, fakeFetch().impl, display.derive)))?.task).toMatchObject({ displayState: "ready" });
  });

  it("derives the display copy once when two instances see the stored result: the other waits out the lease", async () => {
    const { service } = fakeService();
    const id = await storedResultTask();
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const slow = fakeDerive();
    const first = refreshTask(
      id,
      {},
      deps(service, fakeFetch().impl, async (...args) => (await held, slow.derive(...args))),
    );
    await vi.waitFor(async () => expect((await row(id)).refreshedAt?.getTime()).toBe(clock + COPY_LEASE_MS));
    // Another process (no shared promise, no cached row) sees the stored result meanwhile.
    forgetInflight(id);
    forgetCached(id);
    const other = fakeDerive();
    const second = await refreshTask(id, { minIntervalMs: 0 }, deps(service, fakeFetch().impl, other.derive));
    expect(second?.task.displayState).toBeNull();
    expect(other.calls).toHaveLength(0);
    release();
    expect((await first)?.task).toMatchObject({ displayState: "ready", refreshedAt: new Date(clock) });
    expect(slow.calls).toHaveLength(1);
  });

  it("frees a display lease left by a crashed instance once it runs out", async () => {
    const { service } = fakeService();
    const id = await storedResultTask({ refreshedAt: new Date(clock + COPY_LEASE_MS) });
    const display = fakeDerive();
    expect((await refreshTask(id, {}, deps(service, fakeFetch().impl, display.derive)))?.task.displayState).toBeNull();
    clock += COPY_LEASE_MS;
    forgetInflight(id);
    expect((await refreshTask(id, {}, deps(service, fakeFetch().impl, display.derive)))?.task.displayState).toBe("ready");
    expect(display.calls).toHaveLength(1);
  });

  it("frees the leases a killed server left, at start on the embedded database, so the result is saved at once", async () => {
    const { service } = fakeService();
    const id = await storedResultTask({ refreshedAt: new Date(clock + COPY_LEASE_MS) });
    const other = await newTask();
    const earlier = new Date(clock - 10_000);
    await (await db()).update(studioTasks).set({ refreshedAt: earlier }).where(eq(studioTasks.id, other.id));
    expect(await releaseLeasesAtStart(new Date(clock))).toBeGreaterThanOrEqual(1);
    expect((await row(id)).refreshedAt).toEqual(new Date(clock));
    expect((await row(other.id)).refreshedAt).toEqual(earlier);
    forgetCached(id);
    const display = fakeDerive();
    expect((await refreshTask(id, {}, deps(service, fakeFetch().impl, display.derive)))?.task.displayState).toBe("ready");
  });

  it("on a web server (saves off) records the service's success but copies nothing, and asks no more", async () => {
    const { service, answers, calls } = fakeService();
    const fetcher = fakeFetch();
    const display = fakeDerive();
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => success(serviceTaskId));
    const web = { ...deps(service, fetcher.impl, display.derive), saves: false };
    const outcome = await refreshTask(id, {}, web);
    expect(outcome).toEqual({ task: expect.objectContaining({ state: "success", resultFile: null, displayState: null }) });
    expect(isSettled(outcome!.task)).toBe(false);
    clock += 60_000;
    expect((await refreshTask(id, {}, web))?.task.resultFile).toBeNull();
    expect(calls).toEqual([`queryTask:${serviceTaskId}`]);
    expect(fetcher.urls).toHaveLength(0);
    expect(display.calls).toHaveLength(0);
    // A worker (saves on) saves it.
    const saved = await refreshTask(id, { minIntervalMs: 0 }, deps(service, fetcher.impl, display.derive));
    expect(saved?.task).toMatchObject({ resultFile: `results/${id}/result.glb`, displayState: "ready" });
  });

  it("answers a poll within the interval from memory: no database read or write", async () => {
    const { service, answers, calls } = fakeService();
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => ({ task_id: serviceTaskId, state: "processing" }));
    await refreshTask(id, {}, deps(service));
    const database = await db();
    const update = vi.spyOn(database, "update");
    const select = vi.spyOn(database, "select");
    clock += 500;
    for (let i = 0; i < 5; i++) expect((await refreshTask(id, {}, deps(service)))?.task.state).toBe("processing");
    expect(update).not.toHaveBeenCalled();
    expect(select).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
  });

  it("answers null for an unknown task", async () => {
    expect(await refreshTask("nope", {}, deps(fakeService().service))).toBeNull();
  });
});
