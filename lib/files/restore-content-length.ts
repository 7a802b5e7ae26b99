import "server-only";
import http from "node:http";
import { oncePerProcess } from "@/lib/global-singleton";

/**
 * Carries a file's length past Next, whose route-handler response copy (16.x, send-response.js
 * FORBIDDEN_HEADERS) drops `Content-Length` from every Response, leaving bodies chunked: no
 * download progress, and a HEAD that cannot say the size. `serveFile` sets this header too.
 */
export const FILE_LENGTH_HEADER = "x-file-length";

/**
 * Makes every Node response turn `FILE_LENGTH_HEADER` into `Content-Length` as its head is
 * written (once per process; call it at startup, before requests). Nothing else changes: the
 * hook acts only on responses carrying that header, and never on an encoded body (e.g. gzipped
 * by a middleware that ignored `no-transform`), whose length would differ.
 */
export function restoreContentLength(): void {
  oncePerProcess("x3d.restoreContentLength", install);
}

function install(): void {
  const proto = http.ServerResponse.prototype;
  const writeHead = proto.writeHead;
  proto.writeHead = function patchedWriteHead(this: http.ServerResponse, ...args: unknown[]) {
    const length = this.getHeader(FILE_LENGTH_HEADER);
    if (length !== undefined) {
      this.removeHeader(FILE_LENGTH_HEADER);
      if (!this.hasHeader("content-encoding") && !this.hasHeader("transfer-encoding")) {
        this.setHeader("content-length", String(Array.isArray(length) ? length[0] : length));
      }
    }
    return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof writeHead;
}
