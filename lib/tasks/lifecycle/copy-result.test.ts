// Copying a succeeded task's files into studio storage: over HTTP from a fake service at the
// fetch edge, or linked from the embedded service's own files (PGlite, temporary DATA_DIR).
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { studioTasks, users, type StudioTask } from "@/lib/db/schema";
import { registerLocalFiles } from "@/lib/files/local-files";
import type { TaskResult } from "@/lib/x3d/schemas";
import { copyResultFiles, ExpiredLinkError, storeServiceFile } from "./copy-result";

import { plantTaskRow } from "../create/record.test-helpers";
import { tempDataDir } from "@/test/harness/temp-dir";
const dataDir = tempDataDir("copy-result-test");
const USER = "copy-user";
const NOW = new Date("2031-01-02T03:04:05Z");

const stored = (relative: string) => path.join(dataDir, "studio", relative);
const folderOf = (id: string) => (fs.existsSync(stored(`results/${id}`)) ? fs.readdirSync(stored(`results/${id}`)).sort() : []);

/** A service answering each URL by the first rule whose key it contains. */
function service(rules: Record<string, () => Response>) {
  const urls: string[] = [];
  const fetch = (async (input: string | URL | Request) => {
    const url = String(input);
    urls.push(url);
    const rule = Object.entries(rules).find(([key]) => url.includes(key));
    if (!rule) throw new Error(`unexpected fetch ${url}`);
    return rule[1]();
  }) as typeof globalThis.fetch;
  return { fetch, urls };
}

let counter = 0;
const newTask = (values: Partial<StudioTask> = {}) => plantTaskRow({ id: `copy-${++counter}`, userId: USER, ...values });
const result = (url: string, cover_url?: string): TaskResult =>
  ({ task_id: "svc", state: "success", url, ...(cover_url ? { cover_url } : {}) }) as TaskResult;
const noRequery = () => Promise.reject(new Error("no requery expected"));

beforeAll(async () => {
  await (await db()).insert(users).values({ id: USER, email: "copy@example.com" });
});
afterEach(() => registerLocalFiles(undefined));
afterAll(async () => {
  await (await database()).close();
});

describe("storeServiceFile", () => {
  it("streams the file under its kind and the link's extension, leaving no partial file", async () => {
    const svc = service({ "/r.obj": () => new Response("obj-bytes") });
    expect(await storeServiceFile("https://svc.test/f/r.obj?auth_key=k", "s1", "result", svc.fetch)).toBe(
      path.join("results", "s1", "result.obj"),
    );
    expect(fs.readFileSync(stored("results/s1/result.obj"), "utf8")).toBe("obj-bytes");
    expect(folderOf("s1")).toEqual(["result.obj"]);
  });

  it("refuses links that are not http(s), fetching nothing", async () => {
    const svc = service({});
    await expect(storeServiceFile("file:///etc/passwd", "s2", "cover", svc.fetch)).rejects.toThrow("refusing to fetch cover from file:");
    expect(svc.urls).toEqual([]);
  });

  it("calls a link refused with 401, 403 or 410 expired, and any other failure an HTTP error", async () => {
    for (const status of [401, 403, 410]) {
      const svc = service({ "svc.test": () => new Response("no", { status }) });
      const error = await storeServiceFile("http://svc.test/c.webp", "s3", "cover", svc.fetch).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExpiredLinkError);
      expect((error as Error).message).toBe(`the cover link was refused (HTTP ${status})`);
      expect((error as Error).name).toBe("ExpiredLinkError");
    }
    const broken = service({ "svc.test": () => new Response("oops", { status: 500 }) });
    await expect(storeServiceFile("http://svc.test/r.glb", "s3", "result", broken.fetch)).rejects.toThrow("fetching the result: HTTP 500");
    const empty = service({ "svc.test": () => new Response(null, { status: 200 }) });
    await expect(storeServiceFile("http://svc.test/r.glb", "s3", "result", empty.fetch)).rejects.toThrow("fetching the result: HTTP 200");
    expect(folderOf("s3")).toEqual([]);
  });

  it("links the embedded service's own file instead of fetching it", async () => {
    // The service's file, as the embedded service stores it: its key in the file store.
    const source = path.join(dataDir, "engine", "tasks", "own", "result.glb");
    fs.mkdirSync(path.dirname(source), { recursive: true });
    fs.writeFileSync(source, "local-glb");
    registerLocalFiles(async (url) => (url.pathname === "/files/own.glb" ? "engine/tasks/own/result.glb" : null));
    const svc = service({});
    expect(await storeServiceFile("http://studio.test/files/own.glb", "s4", "result", svc.fetch)).toBe("results/s4/result.glb");
    expect(fs.readFileSync(stored("results/s4/result.glb"), "utf8")).toBe("local-glb");
    expect(svc.urls).toEqual([]);
    expect(fs.readFileSync(source, "utf8")).toBe("local-glb");
  });
});

describe("copyResultFiles", () => {
  it("copies the cover first, then the result, and records both", async () => {
    const task = await newTask();
    const svc = service({ cover: () => new Response("cover"), result: () => new Response("result") });
    const copied = await copyResultFiles(task, result("http://svc.test/result.glb", "http://svc.test/cover.webp"), {
      fetch: svc.fetch,
      requery: noRequery,
      now: () => NOW,
    });
    expect(svc.urls).toEqual(["http://svc.test/cover.webp", "http://svc.test/result.glb"]);
    expect(copied).toMatchObject({
      coverFile: `results/${task.id}/cover.webp`,
      resultFile: `results/${task.id}/result.glb`,
      updatedAt: NOW,
    });
    const [row] = await (await db()).select().from(studioTasks).where(eq(studioTasks.id, task.id));
    expect(row).toMatchObject({ coverFile: copied.coverFile, resultFile: copied.resultFile });
  });

  it("copies only what is missing, and takes a result without a cover", async () => {
    const task = await newTask({ coverFile: "results/kept/cover.webp" });
    const svc = service({ result: () => new Response("result") });
    const copied = await copyResultFiles(task, result("http://svc.test/result.stl", "http://svc.test/cover.webp"), {
      fetch: svc.fetch,
      requery: noRequery,
      now: () => NOW,
    });
    expect(svc.urls).toEqual(["http://svc.test/result.stl"]);
    expect(copied).toMatchObject({ coverFile: "results/kept/cover.webp", resultFile: `results/${task.id}/result.stl` });
    const bare = await newTask();
    expect(
      (await copyResultFiles(bare, result("http://svc.test/result.glb"), { fetch: svc.fetch, requery: noRequery, now: () => NOW }))
        .coverFile,
    ).toBeNull();
  });

  it("fails a success without a result link", async () => {
    const task = await newTask();
    await expect(copyResultFiles(task, result(""), { fetch: service({}).fetch, requery: noRequery, now: () => NOW })).rejects.toThrow(
      "the service answered success without a result link",
    );
  });

  it("asks for fresh links at most twice per file when the service calls them expired", async () => {
    const task = await newTask({ coverFile: "results/kept/cover.webp" });
    let requeries = 0;
    const svc = service({ "expired-": () => new Response("gone", { status: 410 }), fresh: () => new Response("fresh") });
    const requery = async () =>
      result(++requeries < 2 ? `http://svc.test/expired-${requeries}/result.glb` : "http://svc.test/fresh/result.glb");
    const copied = await copyResultFiles(task, result("http://svc.test/expired-0/result.glb"), {
      fetch: svc.fetch,
      requery,
      now: () => NOW,
    });
    expect(requeries).toBe(2);
    expect(copied.resultFile).toBe(`results/${task.id}/result.glb`);

    const stuck = await newTask({ coverFile: "results/kept/cover.webp" });
    let asked = 0;
    const always = async () => {
      asked++;
      return result("http://svc.test/expired-again/result.glb");
    };
    await expect(
      copyResultFiles(stuck, result("http://svc.test/expired-x/result.glb"), { fetch: svc.fetch, requery: always, now: () => NOW }),
    ).rejects.toBeInstanceOf(ExpiredLinkError);
    expect(asked).toBe(2);
  });

  it("does not ask again for links the service refused for another reason", async () => {
    const task = await newTask({ coverFile: "results/kept/cover.webp" });
    const svc = service({ "svc.test": () => new Response("no", { status: 404 }) });
    await expect(
      copyResultFiles(task, result("http://svc.test/result.glb"), { fetch: svc.fetch, requery: noRequery, now: () => NOW }),
    ).rejects.toThrow("fetching the result: HTTP 404");
  });

  it("keeps the file a concurrent copier recorded first", async () => {
    const task = await newTask();
    await (await db()).update(studioTasks).set({ resultFile: "results/other/result.glb" }).where(eq(studioTasks.id, task.id));
    const svc = service({ result: () => new Response("mine") });
    const copied = await copyResultFiles(task, result("http://svc.test/result.glb"), {
      fetch: svc.fetch,
      requery: noRequery,
      now: () => NOW,
    });
    expect(copied.resultFile).toBe("results/other/result.glb");
  });
});
