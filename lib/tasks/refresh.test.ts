import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db, database } from "@/lib/db";
import { studioTasks, users, type StudioTaskKind } from "@/lib/db/schema";
import { storedPath } from "@/lib/storage";
import { X3dError } from "@/lib/x3d/client";
import type { TaskResult } from "@/lib/x3d/schemas";
import { recordTask } from "./record";
import { COPY_LEASE_MS, REFRESH_INTERVAL_MS, refreshTask, type RefreshDeps } from "./refresh";

// A throwaway database and storage folder: serverEnv() reads DATA_DIR on first use.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "x3d-refresh-test-"));

const USER = "user-refresh";
let clock = Date.parse("2030-01-01T00:00:00Z");
let counter = 0;

/** A fake service whose answers the test sets per service task id; calls are counted. */
function fakeService() {
  const answers = new Map<string, () => Promise<TaskResult>>();
  const calls: string[] = [];
  const answer = (name: string) =>
    vi.fn(async (id: string) => {
      calls.push(`${name}:${id}`);
      const next = answers.get(id);
      if (!next) throw new Error(`no answer for ${id}`);
      return next();
    });
  const service = {
    queryTask: answer("queryTask"),
    querySplitTask: answer("querySplitTask"),
    queryDepthTask: answer("queryDepthTask"),
    querySegmentationTask: answer("querySegmentationTask"),
  };
  return { service, answers, calls };
}

function fakeFetch(delayMs = 0) {
  const urls: string[] = [];
  const impl = vi.fn(async (input: string | URL | Request) => {
    const url = String(input);
    urls.push(url);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (url.includes("expired")) return new Response("expired", { status: 403 });
    return new Response(url.includes("cover") ? "cover-bytes" : "glb-bytes");
  }) as unknown as typeof fetch;
  return { impl, urls };
}

async function newTask(kind: StudioTaskKind = "image-to-3d") {
  const id = `task-${++counter}`;
  await recordTask({ id, userId: USER, kind, serviceTaskId: `svc-${counter}`, options: {}, inputs: {}, cost: 10, callbackSecretHash: null });
  return { id, serviceTaskId: `svc-${counter}` };
}

const row = async (id: string) => (await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id)))[0]!;
const success = (id: string, url = "http://svc.test/files/x/result.glb?auth_key=k"): TaskResult => ({
  task_id: id,
  state: "success",
  url,
  cover_url: "http://svc.test/files/x/cover.webp?auth_key=k",
});

function deps(service: RefreshDeps["service"], doFetch: typeof fetch = fakeFetch().impl): RefreshDeps {
  return { service, now: () => new Date(clock), fetch: doFetch };
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
    await (await db()).update(studioTasks).set({ refreshedAt: new Date(clock - 1000) }).where(eq(studioTasks.id, id));
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

  it("copies the result and cover once, then never asks the service again", async () => {
    const { service, answers, calls } = fakeService();
    const fetcher = fakeFetch(30);
    const { id, serviceTaskId } = await newTask();
    answers.set(serviceTaskId, async () => success(serviceTaskId));
    const outcome = await refreshTask(id, {}, deps(service, fetcher.impl));
    expect(outcome?.task).toMatchObject({ state: "success", resultFile: `results/${id}/result.glb`, coverFile: `results/${id}/cover.webp` });
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

  it("retries a copy that failed, with the fresh links of a new query", async () => {
    const { service, answers, calls } = fakeService();
    const fetcher = fakeFetch();
    const { id, serviceTaskId } = await newTask("depth");
    answers.set(serviceTaskId, async () => success(serviceTaskId, "http://svc.test/files/expired/result.png?auth_key=k"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const failed = await refreshTask(id, {}, deps(service, fetcher.impl));
    expect(failed?.problem).toMatch(/could not be saved/);
    expect(failed?.task).toMatchObject({ state: "success", resultFile: null });
    answers.set(serviceTaskId, async () => success(serviceTaskId, "http://svc.test/files/x/result.png?auth_key=k"));
    clock += REFRESH_INTERVAL_MS;
    const retried = await refreshTask(id, {}, deps(service, fetcher.impl));
    expect(retried?.task.resultFile).toBe(`results/${id}/result.png`);
    expect(calls).toEqual([`queryDepthTask:${serviceTaskId}`, `queryDepthTask:${serviceTaskId}`]);
  });

  it("frees a copy lease left by a crashed instance once it runs out", async () => {
    const { service, answers, calls } = fakeService();
    const { id, serviceTaskId } = await newTask("segmentation");
    answers.set(serviceTaskId, async () => success(serviceTaskId));
    await (await db()).update(studioTasks).set({ state: "success", refreshedAt: new Date(clock + COPY_LEASE_MS) }).where(eq(studioTasks.id, id));
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

  it("answers null for an unknown task", async () => {
    expect(await refreshTask("nope", {}, deps(fakeService().service))).toBeNull();
  });
});

/** Drops this process's shared promise for a task, as if the next call came from another instance. */
function forgetInflight(id: string) {
  const holder = globalThis as { [key: symbol]: Map<string, unknown> | undefined };
  holder[Symbol.for("x3d.studio.refreshes")]?.delete(id);
}
