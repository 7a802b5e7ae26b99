// The service's signed file links over real HTTP, through Next's server and its compression
// middleware: served as a static file server would, never gzipped on the fly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture } from "../harness/api";
import { startServer, usingS3, type TestServer } from "../harness/server";

let server: TestServer;
let links: { url: string; cover_url: string };
let result: Buffer;
// The cheapest task there is: smallest model, resolution and face count.
const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", format: "2", face: "100000" };
const GZIP = { "Accept-Encoding": "gzip, deflate, br" };

beforeAll(async () => {
  server = await startServer();
  const api = new Api(server.url);
  const id = (await api.post("submit-task", { images: [fixture("chair.png"), "chair.png"], ...cheap })).data.task_id as string;
  const done = await api.waitFor("query-task", id);
  expect(done.data.state).toBe("success");
  links = { url: done.data.url!, cover_url: done.data.cover_url! };
  result = Buffer.from(await (await fetch(links.url, { headers: { "Accept-Encoding": "identity" } })).arrayBuffer());
});
afterAll(() => server?.dispose());

/** Node's fetch decodes gzip silently, so the headers are what tell whether it was compressed. */
const get = (url: string, headers: Record<string, string> = {}, method = "GET") => fetch(url, { method, headers: { ...GZIP, ...headers } });

describe("signed file links", () => {
  it("GET with Accept-Encoding gzip: not compressed, Content-Length is the file's, validators and nosniff present", async () => {
    expect(result.length).toBeGreaterThan(1024); // above the compression threshold, so the test can fail
    expect(result.subarray(0, 4).toString("latin1")).toBe("glTF");
    const res = await get(links.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("content-length")).toBe(String(result.length));
    expect(res.headers.get("content-type")).toBe("model/gltf-binary");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    // Strong and quoted: the file's size, time and inode on disk, the object's ETag in a bucket.
    expect(res.headers.get("etag")).toMatch(usingS3() ? /^"[0-9a-f-]+"$/ : /^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get("last-modified")).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("private, max-age=300, no-transform");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(Buffer.from(await res.arrayBuffer()).equals(result)).toBe(true);
  });

  it("Range: 206 with exactly those bytes; past the end 416 with bytes */size", async () => {
    const part = await get(links.url, { Range: "bytes=100-299" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-encoding")).toBeNull();
    expect(part.headers.get("content-range")).toBe(`bytes 100-299/${result.length}`);
    expect(part.headers.get("content-length")).toBe("200");
    expect(Buffer.from(await part.arrayBuffer()).equals(result.subarray(100, 300))).toBe(true);

    const tail = await get(links.url, { Range: "bytes=-16" });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(result.subarray(result.length - 16))).toBe(true);

    const past = await get(links.url, { Range: `bytes=${result.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${result.length}`);
  });

  it("If-None-Match with the ETag: 304 without a body; HEAD: the headers of a GET and no body", async () => {
    const etag = (await get(links.url, {}, "HEAD")).headers.get("etag")!;
    const again = await get(links.url, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect((await again.arrayBuffer()).byteLength).toBe(0);

    const head = await get(links.url, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(result.length));
    expect(head.headers.get("content-encoding")).toBeNull();
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("the cover is served the same way", async () => {
    const cover = await get(links.cover_url, { Range: "bytes=0-7" });
    expect(cover.status).toBe(206);
    expect(cover.headers.get("content-length")).toBe("8");
    expect(cover.headers.get("content-encoding")).toBeNull();
  });

  it("a path that is not percent-encoded UTF-8 answers 404, not Next's bare 500", async () => {
    const { pathname } = new URL(links.url);
    const [, , , , taskId] = pathname.split("/");
    for (const path of [
      "/open-api/v1/files/%C0%AE%C0%AE/result.glb",
      `/open-api/v1/files/${taskId}/%C0%AE`,
      `/open-api/v1/files/${taskId}/result%FF.glb`,
    ]) {
      expect((await get(`${server.url}${path}`)).status, path).toBe(404);
      expect((await get(`${server.url}${path}`, {}, "HEAD")).status, path).toBe(404);
    }
  });

  it("a link with a broken signature is still refused, for HEAD too", async () => {
    const forged = new URL(links.url);
    forged.searchParams.set("auth_key", "0".repeat(32));
    expect((await get(forged.toString())).status).toBe(403);
    expect((await get(forged.toString(), {}, "HEAD")).status).toBe(403);
  });
});
