import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MultipartError, type MultipartOptions, parseMultipart } from "./multipart";

const URL_ = "http://localhost/api/upload";
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "multipart-test-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function options(over: Partial<MultipartOptions> = {}): MultipartOptions {
  return {
    dir,
    maxFileBytes: () => 1024 * 1024,
    maxFiles: 5,
    maxFieldBytes: 1024,
    fileFields: new Set(["image", "mesh"]),
    ...over,
  };
}

function formRequest(form: FormData): Request {
  return new Request(URL_, { method: "POST", body: form });
}

function rawRequest(body: string | ReadableStream<Uint8Array>, boundary = "XyZ"): Request {
  return new Request(URL_, {
    method: "POST",
    body,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    duplex: "half",
  } as RequestInit);
}

async function expectError(p: Promise<unknown>, kind: string, field?: string): Promise<MultipartError> {
  const e = await p.then(
    () => expect.fail("expected a MultipartError"),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(MultipartError);
  const me = e as MultipartError;
  expect(me.kind).toBe(kind);
  if (field !== undefined) expect(me.field).toBe(field);
  return me;
}

/** A multipart body whose one file part (field "mesh") is `fileBytes` long, made on demand. */
function lazyBody(fileBytes: number, chunk = 64 * 1024) {
  const enc = new TextEncoder();
  const pre = enc.encode(
    '--XyZ\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nhello\r\n' +
      '--XyZ\r\nContent-Disposition: form-data; name="mesh"; filename="big.stl"\r\n' +
      "Content-Type: model/stl\r\n\r\n",
  );
  const post = enc.encode("\r\n--XyZ--\r\n");
  // Reused for every chunk, so the test allocates nothing per chunk and any copy the parser
  // keeps (e.g. concatenating the file) shows up in process.memoryUsage().arrayBuffers.
  const block = new Uint8Array(chunk).fill(0x61);
  const state = { pulled: 0, sentFile: 0 };
  let stage = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stage === 0) {
        stage = 1;
        state.pulled += pre.length;
        return controller.enqueue(pre);
      }
      if (stage === 1 && state.sentFile < fileBytes) {
        const n = Math.min(chunk, fileBytes - state.sentFile);
        state.sentFile += n;
        state.pulled += n;
        return controller.enqueue(n === chunk ? block : block.subarray(0, n));
      }
      if (stage === 1) {
        stage = 2;
        state.pulled += post.length;
        controller.enqueue(post);
        return controller.close();
      }
    },
  });
  return { stream, state };
}

describe("parseMultipart", () => {
  it("stores files from a FormData body and returns text fields", async () => {
    const png = new Uint8Array(200).map((_, i) => i);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const form = new FormData();
    form.append("prompt", "a red chair");
    form.append("tags", "a");
    form.append("tags", "b");
    form.append("image", new File([png], "chair.png", { type: "image/png" }));
    form.append("mesh", new File(["v 0 0 0\n"], "m.obj", { type: "text/plain" }));

    const { fields, files } = await parseMultipart(formRequest(form), options());
    expect(fields.get("prompt")).toEqual(["a red chair"]);
    expect(fields.get("tags")).toEqual(["a", "b"]);
    const image = files.get("image")?.[0];
    expect(image).toMatchObject({ field: "image", filename: "chair.png", declaredType: "image/png", size: 200 });
    expect(path.dirname(image!.path)).toBe(dir);
    expect(new Uint8Array(await readFile(image!.path))).toEqual(png);
    expect(image!.head).toEqual(png);
    const mesh = files.get("mesh")?.[0];
    expect(mesh).toMatchObject({ filename: "m.obj", declaredType: "text/plain", size: 8 });
    expect(await readFile(mesh!.path, "utf8")).toBe("v 0 0 0\n");
    expect(await readdir(dir)).toHaveLength(2);
  });

  it("keeps the part order of several files in one field, and a 512-byte head", async () => {
    const form = new FormData();
    for (let i = 0; i < 3; i++) form.append("image", new File([new Uint8Array(1000 * (3 - i)).fill(i)], `v${i}.png`));
    const { files } = await parseMultipart(formRequest(form), options());
    const list = files.get("image") ?? [];
    expect(list.map((f) => [f.filename, f.size, f.head.length])).toEqual([
      ["v0.png", 3000, 512],
      ["v1.png", 2000, 512],
      ["v2.png", 1000, 512],
    ]);
  });

  it("parses a hand-written body; file parts of other fields are read as text", async () => {
    const body =
      "preamble\r\n--XyZ\r\n" +
      'Content-Disposition: form-data; name="face"\r\n\r\n50000\r\n' +
      "--XyZ\r\n" +
      'Content-Disposition: form-data; name="mesh"; filename="dir/\u00e9t\u00e9.stl"\r\n' +
      "Content-Type: application/sla\r\n\r\n" +
      "solid x\r\nfacet\r\n\r\n" +
      "--XyZ\r\n" +
      'Content-Disposition: form-data; name="options"; filename="options.json"\r\n' +
      "Content-Type: application/json\r\n\r\n" +
      '{"pbr":true}\r\n' +
      "--XyZ--\r\n";
    const { fields, files } = await parseMultipart(rawRequest(body), options());
    expect(fields.get("face")).toEqual(["50000"]);
    expect(fields.get("options")).toEqual(['{"pbr":true}']);
    const mesh = files.get("mesh")?.[0];
    expect(mesh).toMatchObject({ filename: "\u00e9t\u00e9.stl", declaredType: "application/sla", size: 16 });
    expect(await readFile(mesh!.path, "utf8")).toBe("solid x\r\nfacet\r\n");
  });

  it("keeps an empty file input as a 0-byte file", async () => {
    const form = new FormData();
    form.append("image", new File([], ""));
    const { files } = await parseMultipart(formRequest(form), options());
    const image = files.get("image")?.[0];
    expect(image).toMatchObject({ filename: "", size: 0 });
    expect(image!.head).toHaveLength(0);
    expect((await stat(image!.path)).size).toBe(0);

    // A text part named like a file field (no filename) stays a text field.
    const raw = '--XyZ\r\nContent-Disposition: form-data; name="mesh"\r\n\r\n\r\n--XyZ--\r\n';
    const r = await parseMultipart(rawRequest(raw), options());
    expect(r.files.has("mesh")).toBe(false);
    expect(r.fields.get("mesh")).toEqual([""]);
  });

  it("refuses an oversized file with its field name and leaves no files behind", async () => {
    const form = new FormData();
    form.append("image", new File([new Uint8Array(5000)], "ok.png"));
    form.append("mesh", new File([new Uint8Array(20_000)], "big.glb"));
    const limits = (field: string) => (field === "mesh" ? 10_000 : 100_000);
    const e = await expectError(parseMultipart(formRequest(form), options({ maxFileBytes: limits })), "file-too-large", "mesh");
    expect(e.message).toContain("mesh");
    expect(await readdir(dir)).toEqual([]);
  });

  it("accepts a file of exactly the limit", async () => {
    const form = new FormData();
    form.append("mesh", new File([new Uint8Array(10_000)], "m.glb"));
    const { files } = await parseMultipart(formRequest(form), options({ maxFileBytes: () => 10_000 }));
    expect(files.get("mesh")?.[0]?.size).toBe(10_000);
  });

  it("refuses as soon as a file is over its limit, drops a little more of the body (so the client reads the answer), then cuts it", async () => {
    const { stream, state } = lazyBody(50 * 1024 * 1024);
    const refused = parseMultipart(rawRequest(stream), options({ maxFileBytes: () => 1024 * 1024 }));
    await expectError(refused, "file-too-large", "mesh");
    expect(await readdir(dir)).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    // 1 MB of file, then at most 8 MB drained (plus the chunks in flight): not the 50 MB.
    expect(state.pulled).toBeGreaterThan(1024 * 1024);
    expect(state.pulled).toBeLessThan(10 * 1024 * 1024);
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuses a body whose Content-Length is over maxBodyBytes before reading any of it", async () => {
    const { stream, state } = lazyBody(600 * 1024 * 1024);
    const request = new Request(URL_, {
      method: "POST",
      body: stream,
      headers: { "content-type": "multipart/form-data; boundary=XyZ", "content-length": String(600 * 1024 * 1024) },
      duplex: "half",
    } as RequestInit);
    const started = performance.now();
    await expectError(
      parseMultipart(request, options({ maxFileBytes: () => 1024 ** 3, maxBodyBytes: 100 * 1024 * 1024 })),
      "body-too-large",
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(state.sentFile).toBe(0);
    expect(await readdir(dir)).toEqual([]);
  });

  it("cuts a body without Content-Length where it passes maxBodyBytes", async () => {
    const { stream, state } = lazyBody(600 * 1024 * 1024);
    await expectError(
      parseMultipart(rawRequest(stream), options({ maxFileBytes: () => 1024 ** 3, maxBodyBytes: 4 * 1024 * 1024 })),
      "body-too-large",
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(state.pulled).toBeLessThan(5 * 1024 * 1024);
    expect(await readdir(dir)).toEqual([]);
  });

  it("gives up a body that stops sending, after idleTimeoutMs", async () => {
    const enc = new TextEncoder();
    let first = true;
    const stalled = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!first) return new Promise(() => {}); // never another byte
        first = false;
        controller.enqueue(enc.encode('--XyZ\r\nContent-Disposition: form-data; name="mesh"; filename="a.stl"\r\n\r\nsolid'));
      },
    });
    const started = performance.now();
    await expectError(parseMultipart(rawRequest(stalled), options({ idleTimeoutMs: 300 })), "timeout");
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(280);
    expect(took).toBeLessThan(2000);
    expect(await readdir(dir)).toEqual([]);
  });

  it("streams a 50 MB upload to disk without holding it in memory", async () => {
    const size = 50 * 1024 * 1024;
    const { stream, state } = lazyBody(size);
    const base = process.memoryUsage();
    let peakArrayBuffers = 0;
    let peakRss = 0;
    const timer = setInterval(() => {
      const m = process.memoryUsage();
      peakArrayBuffers = Math.max(peakArrayBuffers, m.arrayBuffers - base.arrayBuffers);
      peakRss = Math.max(peakRss, m.rss - base.rss);
    }, 2);
    try {
      const { fields, files } = await parseMultipart(rawRequest(stream), options({ maxFileBytes: () => size }));
      expect(fields.get("prompt")).toEqual(["hello"]);
      expect(files.get("mesh")?.[0]?.size).toBe(size);
      expect((await stat(files.get("mesh")![0]!.path)).size).toBe(size);
    } finally {
      clearInterval(timer);
    }
    expect(state.sentFile).toBe(size);
    expect(peakArrayBuffers).toBeLessThan(16 * 1024 * 1024);
    expect(peakRss).toBeLessThan(40 * 1024 * 1024);
  });

  it("gives a large body's memory back soon after it was read, even when it all arrived before it was parsed", async () => {
    // As Next.js hands a route its body: every chunk queued in the web stream as it came off the socket.
    const size = 64 * 1024 * 1024;
    const chunk = 64 * 1024;
    const base = process.memoryUsage().arrayBuffers;
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          enc.encode('--XyZ\r\nContent-Disposition: form-data; name="mesh"; filename="big.stl"\r\nContent-Type: model/stl\r\n\r\n'),
        );
        for (let sent = 0; sent < size; sent += chunk) controller.enqueue(new Uint8Array(chunk).fill(sent % 251));
        controller.enqueue(enc.encode("\r\n--XyZ--\r\n"));
        controller.close();
      },
    });
    const { files } = await parseMultipart(rawRequest(stream), options({ maxFileBytes: () => size }));
    expect(files.get("mesh")?.[0]?.size).toBe(size);
    await new Promise((r) => setTimeout(r, 1500));
    expect(process.memoryUsage().arrayBuffers - base).toBeLessThan(16 * 1024 * 1024);
  });

  it("refuses bodies that are not multipart/form-data", async () => {
    const json = new Request(URL_, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    await expectError(parseMultipart(json, options()), "not-multipart");
    const urlencoded = new Request(URL_, { method: "POST", body: new URLSearchParams({ a: "1" }) });
    await expectError(parseMultipart(urlencoded, options()), "not-multipart");
    const noBoundary = new Request(URL_, {
      method: "POST",
      body: "x",
      headers: { "content-type": "multipart/form-data" },
    });
    await expectError(parseMultipart(noBoundary, options()), "not-multipart");
    await expectError(parseMultipart(new Request(URL_, { method: "POST", body: "x" }), options()), "not-multipart");
  });

  it("refuses a truncated body and removes what was written", async () => {
    const body =
      '--XyZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n' +
      "x".repeat(100_000) +
      '\r\n--XyZ\r\nContent-Disposition: form-data; name="mesh"; filename="b.obj"\r\n\r\nv 0 0';
    await expectError(parseMultipart(rawRequest(body), options()), "malformed");
    expect(await readdir(dir)).toEqual([]);
  });

  it("fails as malformed when the client aborts mid-upload, and cleans up", async () => {
    const enc = new TextEncoder();
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(enc.encode('--XyZ\r\nContent-Disposition: form-data; name="mesh"; filename="m.glb"\r\n\r\n'));
        else if (sent < 10) controller.enqueue(new Uint8Array(32 * 1024));
        else controller.error(new Error("client went away"));
        sent++;
      },
    });
    await expectError(parseMultipart(rawRequest(stream), options()), "malformed");
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuses a body with no parts", async () => {
    await expectError(parseMultipart(rawRequest(""), options()), "malformed");
    await expectError(parseMultipart(rawRequest("garbage without boundary"), options()), "malformed");
  });

  it("refuses too many files and cleans up", async () => {
    const form = new FormData();
    for (let i = 0; i < 4; i++) form.append("image", new File(["data"], `${i}.png`));
    await expectError(parseMultipart(formRequest(form), options({ maxFiles: 3 })), "too-many-files");
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuses an oversized text field", async () => {
    const form = new FormData();
    form.append("prompt", "x".repeat(2000));
    await expectError(parseMultipart(formRequest(form), options()), "field-too-large", "prompt");
  });

  it("skips a file part of another field that is longer than a text field may be, keeping the rest", async () => {
    const form = new FormData();
    form.append("face", "50000");
    form.append("notes", new File(["short"], "notes.txt"));
    form.append("attachment", new File(["y".repeat(200_000)], "photo.raw"));
    form.append("image", new File(["png bytes"], "a.png"));
    form.append("attachment", new File(["z".repeat(3000)], "second.raw"));
    form.append("notes", new File(["kept"], "notes2.txt"));
    const { fields, files } = await parseMultipart(formRequest(form), options());
    expect(fields.get("face")).toEqual(["50000"]);
    expect(fields.get("notes")).toEqual(["short", "kept"]);
    expect(fields.has("attachment")).toBe(false);
    expect(files.get("image")?.[0]).toMatchObject({ filename: "a.png", size: 9 });
  });

  it("refuses too many text fields", async () => {
    const form = new FormData();
    for (let i = 0; i < 5; i++) form.append(`f${i}`, "1");
    await expectError(parseMultipart(formRequest(form), options({ maxFields: 4 })), "too-many-fields");
  });
});
