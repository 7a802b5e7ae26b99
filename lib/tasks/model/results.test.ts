// The studio's stored task files: their names, formats and how they are served.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { StudioTask } from "@/lib/db/schema";
import { downloadName, isTaskFile, serveStoredFile, serveTaskFile, storedExtension, storedFormat, taskFilePath } from "./results";
import { tempDataDir } from "@/test/harness/temp-dir";

const dataDir = tempDataDir("results-test");

const CREATED = new Date("2031-02-03T23:59:00Z");
const task = (files: Partial<Pick<StudioTask, "resultFile" | "coverFile" | "displayFile" | "previewFile">>) =>
  ({
    id: "t1",
    kind: "split",
    createdAt: CREATED,
    resultFile: null,
    coverFile: null,
    displayFile: null,
    previewFile: null,
    ...files,
  }) as StudioTask;

function store(relative: string, text: string) {
  const full = path.join(dataDir, "studio", relative);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

describe("file names and formats", () => {
  it("keeps the service URL's extension when it is a known type, else bin", () => {
    expect(storedExtension("http://svc.test/f/result.GLB?auth_key=k")).toBe("glb");
    expect(storedExtension("http://svc.test/f/cover.webp")).toBe("webp");
    expect(storedExtension("http://svc.test/f/result.exe")).toBe("bin");
    expect(storedExtension("http://svc.test/f/result")).toBe("bin");
    // Not an own property of the table, though every object has it.
    expect(storedExtension("http://svc.test/f/x.constructor")).toBe("bin");
  });

  it("reads a stored file's format from its extension", () => {
    expect(storedFormat("results/t1/result.obj")).toBe("obj");
    expect(storedFormat("results/t1/result")).toBeNull();
    expect(storedFormat(null)).toBeNull();
    expect(storedFormat("")).toBeNull();
  });

  it("names downloads by kind, creation day and file", () => {
    expect(downloadName({ kind: "split", createdAt: CREATED }, "result", "glb")).toBe("split-2031-02-03.glb");
    expect(downloadName({ kind: "depth", createdAt: CREATED }, "cover", "webp")).toBe("depth-2031-02-03-cover.webp");
    expect(downloadName({ kind: "texture", createdAt: CREATED }, "preview", "glb")).toBe("texture-2031-02-03-preview.glb");
  });

  it("knows the four task files and where each is recorded", () => {
    expect(["result", "cover", "display", "preview"].every(isTaskFile)).toBe(true);
    expect(isTaskFile("inputs")).toBe(false);
    expect(isTaskFile("toString")).toBe(false);
    const t = task({ resultFile: "r.glb", coverFile: "c.webp", displayFile: "d.glb", previewFile: "p.glb" });
    expect([taskFilePath(t, "result"), taskFilePath(t, "cover"), taskFilePath(t, "display"), taskFilePath(t, "preview")]).toEqual([
      "r.glb",
      "c.webp",
      "d.glb",
      "p.glb",
    ]);
  });
});

describe("serving task files", () => {
  const get = new Request("http://studio.test/api/files/t1/result");

  it("serves the stored result with its type, as a named download or inline", async () => {
    store("results/t1/result.glb", "glb-bytes");
    const t = task({ resultFile: "results/t1/result.glb" });
    const download = await serveTaskFile(get, t, "result", { download: true, cacheControl: "private, max-age=60" });
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("glb-bytes");
    expect(download.headers.get("content-type")).toBe("model/gltf-binary");
    expect(download.headers.get("cache-control")).toMatch(/^private, max-age=60\b/);
    expect(download.headers.get("content-disposition")).toBe('attachment; filename="split-2031-02-03.glb"');
    const inline = await serveTaskFile(get, t, "result", { download: false, cacheControl: "no-store" });
    expect(inline.headers.get("content-disposition")).toBe('inline; filename="split-2031-02-03.glb"');
  });

  it("serves a file without an extension as bin", async () => {
    store("results/t1/cover", "cover-bytes");
    const res = await serveTaskFile(get, task({ coverFile: "results/t1/cover" }), "cover", { download: true, cacheControl: "no-store" });
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="split-2031-02-03-cover.bin"');
    expect(await res.text()).toBe("cover-bytes");
  });

  it("is 404 for a file not recorded, not stored, or outside storage", async () => {
    const unrecorded = await serveTaskFile(get, task({}), "display", { download: false, cacheControl: "no-store" });
    expect(unrecorded.status).toBe(404);
    expect(await unrecorded.text()).toBe("Not Found");
    const gone = task({ previewFile: "results/t1/missing.glb" });
    expect((await serveTaskFile(get, gone, "preview", { download: false, cacheControl: "no-store" })).status).toBe(404);
    const outside = await serveStoredFile(get, "../../etc/passwd", {
      download: false,
      cacheControl: "no-store",
      contentType: "text/plain",
      downloadName: "x",
    });
    expect(outside.status).toBe(404);
    expect(await outside.text()).toBe("Not Found");
  });
});
