import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILE_LENGTH_HEADER, restoreContentLength } from "./restore-content-length";

let server: http.Server;
let base: string;

// Writes the way Next does for a route handler: headers copied without Content-Length, flushed,
// then the body in chunks (which Node would otherwise send chunked).
beforeAll(async () => {
  restoreContentLength();
  const patched = http.ServerResponse.prototype.writeHead;
  restoreContentLength();
  expect(http.ServerResponse.prototype.writeHead).toBe(patched); // once per process, not wrapped twice
  server = http.createServer((req, res) => {
    const length = req.url === "/encoded" ? "11" : "10";
    if (req.url !== "/plain") res.appendHeader(FILE_LENGTH_HEADER, length);
    if (req.url === "/encoded") res.setHeader("content-encoding", "gzip");
    res.flushHeaders();
    res.write("01234");
    res.end(req.url === "/encoded" ? "567890" : "56789");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Raw response headers, without fetch's decoding getting in the way. */
function head(path: string, method = "GET"): Promise<http.IncomingHttpHeaders> {
  return new Promise((resolve, reject) => {
    http
      .request(`${base}${path}`, { method }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.headers));
      })
      .on("error", reject)
      .end();
  });
}

describe("restoreContentLength", () => {
  it("turns the private header into Content-Length and removes it, for GET and HEAD", async () => {
    for (const method of ["GET", "HEAD"]) {
      const headers = await head("/file", method);
      expect(headers["content-length"]).toBe("10");
      expect(headers["transfer-encoding"]).toBeUndefined();
      expect(headers[FILE_LENGTH_HEADER]).toBeUndefined();
    }
  });

  it("leaves other responses, and encoded bodies, chunked", async () => {
    expect((await head("/plain"))["transfer-encoding"]).toBe("chunked");
    const encoded = await head("/encoded");
    expect(encoded["content-length"]).toBeUndefined();
    expect(encoded["transfer-encoding"]).toBe("chunked");
  });
});
