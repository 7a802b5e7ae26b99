/**
 * Helpers for tests of task refreshes: fake services, file fetches and display derivers that
 * record their calls, and the deps of tests that stop before any file is copied.
 */
import fs from "node:fs";
import path from "node:path";
import { vi } from "vitest";
import type { TaskResult } from "@/lib/x3d/schemas";
import type { DeriveDisplay } from "./display-copy";
import type { RefreshDeps, TaskQueries } from "./refresh";

/** A fake service whose answers the test sets per service task id; calls are counted. */
export function fakeService() {
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

export function fakeFetch(delayMs = 0) {
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

export const success = (id: string, url = "http://svc.test/files/x/result.glb?auth_key=k"): TaskResult => ({
  task_id: id,
  state: "success",
  url,
  cover_url: "http://svc.test/files/x/cover.webp?auth_key=k",
});

/** A display deriver that writes a marker file per copy and records its calls. */
export function fakeDerive(options: { preview?: boolean; fail?: boolean } = {}) {
  const calls: Array<{ input: string; format: string }> = [];
  const derive: DeriveDisplay = async (input, format, outDir) => {
    calls.push({ input, format });
    if (options.fail) throw new Error("cannot read this mesh");
    fs.writeFileSync(path.join(outDir, "display.glb"), `display of ${path.basename(input)}`);
    if (options.preview) fs.writeFileSync(path.join(outDir, "preview.glb"), "preview");
    return { display: { file: "display.glb" }, preview: options.preview ? { file: "preview.glb" } : null };
  };
  return { derive, calls };
}

/** Drops this process's shared promise for a task, as if the next call came from another instance. */
export function forgetInflight(id: string) {
  const holder = globalThis as { [key: symbol]: Map<string, unknown> | undefined };
  holder[Symbol.for("x3d.studio.refreshes")]?.delete(id);
}

/** Drops this process's cached row of a task, as after a write made elsewhere. */
export function forgetCached(id: string) {
  const holder = globalThis as { [key: symbol]: { delete(id: string): void } | undefined };
  holder[Symbol.for("x3d.studio.task-cache")]?.delete(id);
}

/** A service whose every query endpoint is `query`. */
export function oneQueryService(query: (id: string) => Promise<TaskResult>): TaskQueries {
  return { queryTask: query, querySplitTask: query, queryDepthTask: query, querySegmentationTask: query };
}

/** Refresh deps for state-only tests: copying a result or deriving a display copy throws. */
export function stateOnlyDeps(service: TaskQueries, now: () => Date = () => new Date()): RefreshDeps {
  return {
    service,
    now,
    fetch: (() => Promise.reject(new Error("no result files in this test"))) as typeof fetch,
    deriveDisplay: () => Promise.reject(new Error("no display copies in this test")),
  };
}
