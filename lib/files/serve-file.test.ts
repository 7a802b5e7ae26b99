import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseHttpDate } from "./conditions";
import { FILE_LENGTH_HEADER } from "./restore-content-length";
import { contentDisposition, serveFile, withNoTransform } from "./serve-file";
import { LocalStore } from "./store/local";

const TEXT = "0123456789abcdefghij"; // 20 bytes
const OPTIONS = {
  contentType: "model/gltf-binary",
  cacheControl: "private, max-age=300",
  disposition: 'attachment; filename="a.glb"',
  extraHeaders: { "Access-Control-Allow-Origin": "*" },
};
let dir: string;
let file: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "serve-file-"));
  file = put("a.glb", TEXT);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes a file the way storage does: under a temporary name, then renamed into place. */
function put(name: string, content: string): string {
  const full = path.join(dir, name);
  fs.writeFileSync(`${full}.part`, content);
  fs.renameSync(`${full}.part`, full);
  return full;
}

/** Serves the file at `at` (a path under dir) as the routes serve a stored file. */
const serve = async (headers: Record<string, string> = {}, method = "GET", at = file) =>
  serveFile(new Request("http://studio.test/f", { method, headers }), await new LocalStore(dir).open(path.relative(dir, at)), OPTIONS);

async function expectBody(res: Response, status: number, body: string) {
  expect(res.status).toBe(status);
  expect(await res.text()).toBe(body);
  expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
  expect(res.headers.get(FILE_LENGTH_HEADER)).toBe(res.headers.get("content-length"));
}

describe("serveFile: plain GET and HEAD", () => {
  it("GET sends the whole file with its length, validators and the caller's labels", async () => {
    const res = await serve();
    await expectBody(res, 200, TEXT);
    const stat = fs.statSync(file, { bigint: true });
    expect(res.headers.get("etag")).toBe(`"14-${stat.mtimeNs.toString(16)}-${stat.ino.toString(16)}"`);
    expect(res.headers.get("last-modified")).toBe(new Date(Number(stat.mtimeMs / 1000n) * 1000).toUTCString());
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-type")).toBe("model/gltf-binary");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="a.glb"');
    expect(res.headers.get("cache-control")).toBe("private, max-age=300, no-transform");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("HEAD sends the same headers and no body, and ignores Range (defined for GET only)", async () => {
    const res = await serve({ Range: "bytes=0-1" }, "HEAD");
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(res.headers.get("content-length")).toBe("20");
    expect(res.headers.get("etag")).toBe((await serve()).headers.get("etag"));
  });

  it("404 for a missing file or a folder, still nosniff, sandboxed and with the extra headers", async () => {
    fs.mkdirSync(path.join(dir, "folder"), { recursive: true });
    for (const at of [path.join(dir, "missing.glb"), path.join(dir, "folder")]) {
      const res = await serve({}, "GET", at);
      expect(res.status).toBe(404);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; sandbox/);
    }
  });

  it("an empty file is a 200 with Content-Length 0, even when a Range is asked for", async () => {
    const empty = put("empty.bin", "");
    await expectBody(await serve({}, "GET", empty), 200, "");
    await expectBody(await serve({ Range: "bytes=0-" }, "GET", empty), 200, "");
  });
});

describe("serveFile: Range", () => {
  it.each([
    ["bytes=2-5", "2-5", "2345"],
    ["bytes=15-", "15-19", "fghij"],
    ["bytes=-3", "17-19", "hij"],
    ["bytes=-50", "0-19", TEXT],
    ["bytes=18-100", "18-19", "ij"],
    ["Bytes = 0-0", "0-0", "0"],
    ["bytes=3-4,", "3-4", "34"],
  ])("%s → 206 bytes %s", async (range, span, body) => {
    const res = await serve({ Range: range });
    await expectBody(res, 206, body);
    expect(res.headers.get("content-range")).toBe(`bytes ${span}/20`);
  });

  it.each(["bytes=20-", "bytes=100-200", "bytes=-0"])("%s → 416 with Content-Range bytes */20", async (range) => {
    const res = await serve({ Range: range });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe("bytes */20");
  });

  it.each(["bytes=5-2", "items=0-1", "bytes=a-b", "bytes=0-1,4-5", "bytes=0-1, 30-40"])(
    "%s (invalid, another unit, or several ranges) → the whole file, 200",
    async (range) => {
      const res = await serve({ Range: range });
      await expectBody(res, 200, TEXT);
      expect(res.headers.get("content-range")).toBeNull();
    },
  );

  it("If-Range with the current ETag honours the Range; any other tag, or a weak one, sends the whole file", async () => {
    const etag = (await serve()).headers.get("etag")!;
    await expectBody(await serve({ Range: "bytes=0-1", "If-Range": etag }), 206, "01");
    await expectBody(await serve({ Range: "bytes=0-1", "If-Range": '"other"' }), 200, TEXT);
    await expectBody(await serve({ Range: "bytes=0-1", "If-Range": `W/${etag}` }), 200, TEXT);
  });

  it("If-Range with a date honours the Range only for exactly Last-Modified, and only once the file is a second old", async () => {
    const old = put("old.bin", TEXT);
    fs.utimesSync(old, new Date("2024-05-01T10:00:00Z"), new Date("2024-05-01T10:00:00Z"));
    const rangeAt = (ifRange: string, at = old) => serve({ Range: "bytes=0-1", "If-Range": ifRange }, "GET", at);
    await expectBody(await rangeAt("Wed, 01 May 2024 10:00:00 GMT"), 206, "01");
    await expectBody(await rangeAt("Wed, 01 May 2024 10:00:01 GMT"), 200, TEXT);
    await expectBody(await rangeAt("Wed, 01 May 2024 09:59:59 GMT"), 200, TEXT);
    // A file stamped in the future (i.e. not yet a second old) cannot be trusted by date.
    const fresh = put("fresh.bin", TEXT);
    const soon = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000);
    fs.utimesSync(fresh, soon, soon);
    await expectBody(await rangeAt(soon.toUTCString(), fresh), 200, TEXT);
  });
});

describe("serveFile: conditional requests", () => {
  it("If-None-Match: 304 for the tag (in a list, weak or *), with validators and no body; 200 otherwise", async () => {
    const full = await serve();
    const etag = full.headers.get("etag")!;
    for (const value of [etag, `"x", ${etag}`, `W/${etag}`, "*"]) {
      const res = await serve({ "If-None-Match": value });
      expect(res.status, value).toBe(304);
      expect(res.body).toBeNull();
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("last-modified")).toBe(full.headers.get("last-modified"));
      expect(res.headers.get("cache-control")).toBe("private, max-age=300, no-transform");
    }
    await expectBody(await serve({ "If-None-Match": '"x", "y"' }), 200, TEXT);
  });

  it("If-Modified-Since: 304 when the file is not newer; ignored when If-None-Match is present or the date is bad", async () => {
    const lastModified = (await serve()).headers.get("last-modified")!;
    expect((await serve({ "If-Modified-Since": lastModified })).status).toBe(304);
    expect((await serve({ "If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT" })).status).toBe(200);
    expect((await serve({ "If-Modified-Since": lastModified, "If-None-Match": '"other"' })).status).toBe(200);
    expect((await serve({ "If-Modified-Since": "yesterday-ish" })).status).toBe(200);
  });

  it("If-Match (strong comparison) and If-Unmodified-Since fail with 412", async () => {
    const full = await serve();
    const etag = full.headers.get("etag")!;
    expect((await serve({ "If-Match": '"other"' })).status).toBe(412);
    expect((await serve({ "If-Match": `W/${etag}` })).status).toBe(412);
    expect((await serve({ "If-Match": `"a", ${etag}` })).status).toBe(200);
    expect((await serve({ "If-Match": "*" })).status).toBe(200);
    expect((await serve({ "If-Unmodified-Since": "Thu, 01 Jan 1970 00:00:00 GMT" })).status).toBe(412);
    expect((await serve({ "If-Unmodified-Since": full.headers.get("last-modified")! })).status).toBe(200);
  });

  it("a replaced file gets a new ETag: the old one no longer gives 304 or a range", async () => {
    const at = put("replaced.bin", TEXT);
    const before = (await serve({}, "GET", at)).headers.get("etag")!;
    put("replaced.bin", TEXT.toUpperCase()); // same size, new inode
    const after = await serve({ "If-None-Match": before }, "GET", at);
    expect(after.headers.get("etag")).not.toBe(before);
    await expectBody(after, 200, TEXT.toUpperCase());
    await expectBody(await serve({ Range: "bytes=0-1", "If-Range": before }, "GET", at), 200, TEXT.toUpperCase());
  });
});

describe("serveFile: large files", () => {
  it("a 256 MB file: a range returns just its bytes, and the whole file streams in bounded memory", async () => {
    const big = path.join(dir, "big.bin");
    const size = 256 * 1024 * 1024;
    fs.writeFileSync(big, "");
    fs.truncateSync(big, size); // sparse: costs no disk
    const fd = fs.openSync(big, "r+");
    fs.writeSync(fd, Buffer.from("END!"), 0, 4, size - 4);
    fs.closeSync(fd);

    const range = await serve({ Range: `bytes=${size - 6}-` }, "GET", big);
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer())).toEqual(Buffer.from("\0\0END!", "latin1"));

    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    let total = 0;
    const whole = await serve({}, "GET", big);
    expect(whole.headers.get("content-length")).toBe(String(size));
    const reader = whole.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      total += chunk.value.byteLength;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    expect(total).toBe(size);
    // Buffering the file would add its 256 MB; streaming holds a few chunks at a time.
    expect(peak - rssBefore).toBeLessThan(96 * 1024 * 1024);
  });
});

describe("helpers", () => {
  it("withNoTransform adds no-transform once", () => {
    expect(withNoTransform("private, max-age=300")).toBe("private, max-age=300, no-transform");
    expect(withNoTransform("No-Transform, private")).toBe("No-Transform, private");
    expect(withNoTransform("")).toBe("no-transform");
  });

  it("contentDisposition keeps ASCII names and adds filename* for others", () => {
    expect(contentDisposition("inline", "chair-2024.glb")).toBe('inline; filename="chair-2024.glb"');
    expect(contentDisposition("attachment", 'é "x".glb')).toBe(`attachment; filename="_ _x_.glb"; filename*=UTF-8''%C3%A9%20%22x%22.glb`);
  });

  it("contentDisposition drops bidi overrides and controls, which a download dialog would obey", () => {
    expect(contentDisposition("attachment", "invoice\u202egpj.exe")).toBe('attachment; filename="invoicegpj.exe"');
    expect(contentDisposition("inline", "a\u2066b\u0085c\u200f.png")).toBe('inline; filename="abc.png"');
  });

  it("parseHttpDate reads all three HTTP-date forms as GMT", () => {
    const ms = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT")).toBe(ms);
    expect(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT")).toBe(ms);
    // asctime has no zone: read as GMT whatever the process's zone is.
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      expect(parseHttpDate("Sun Nov  6 08:49:37 1994")).toBe(ms);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    expect(parseHttpDate("not a date")).toBeNaN();
  });
});
