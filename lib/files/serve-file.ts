import "server-only";
import { FILE_POLICY } from "@/lib/http/content-security-policy";
import { checkPreconditions, ifRangeHolds } from "./conditions";
import { parseRange } from "./range";
import { FILE_LENGTH_HEADER } from "./restore-content-length";
import { visibleFileName } from "./file-name";
import type { OpenedFile } from "./store";

/** How `serveFile` labels a file. */
export interface ServeFileOptions {
  contentType: string;
  /** `no-transform` is always added. */
  cacheControl: string;
  /** A whole `Content-Disposition` value; see `contentDisposition`. */
  disposition?: string;
  /** Sent on every answer, errors included (e.g. `Access-Control-Allow-Origin`). */
  extraHeaders?: Record<string, string>;
}

/** `cacheControl` with `no-transform`: Next's compression middleware then leaves the body alone. */
export function withNoTransform(cacheControl: string): string {
  if (/(^|,)\s*no-transform\s*(,|$)/i.test(cacheControl)) return cacheControl;
  return cacheControl.trim() ? `${cacheControl}, no-transform` : "no-transform";
}

/**
 * A `Content-Disposition` value; names outside printable ASCII go in `filename*` (RFC 6266).
 * Bidi overrides and invisible characters are dropped first: a download dialog would show
 * "x\u202Egpj.exe" as "xexe.jpg".
 */
export function contentDisposition(type: "inline" | "attachment", name: string): string {
  const filename = visibleFileName(name);
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  if (ascii === filename) return `${type}; filename="${filename}"`;
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function plain(request: Request, status: number, text: string, headers: Record<string, string>): Response {
  return new Response(request.method === "HEAD" ? null : text, {
    status,
    headers: { ...headers, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * Answers a GET or HEAD for a stored file (opened from lib/files/store, null when there is none)
 * as a static file server does (after pillarjs/send, RFC 9110): 404, 412, 304, 416, 206 for one
 * byte range, else 200, with Content-Length, a strong ETag, Last-Modified and Accept-Ranges; the
 * body streams in constant memory whatever the size, from disk or from the bucket.
 */
export async function serveFile(request: Request, stored: OpenedFile | null, options: ServeFileOptions): Promise<Response> {
  // Stored files are users' (or generated from theirs): never sniffed into something else,
  // never run as a page should one be opened as a document.
  const always = { ...options.extraHeaders, "X-Content-Type-Options": "nosniff", "Content-Security-Policy": FILE_POLICY };
  if (!stored) return plain(request, 404, "Not Found", always);

  const size = stored.size;
  // Last-Modified says whole seconds; the checks compare what it says.
  const file = { etag: stored.etag, lastModified: Math.floor(stored.lastModified / 1000) * 1000 };
  const validators = {
    ...always,
    ETag: file.etag,
    "Last-Modified": new Date(file.lastModified).toUTCString(),
    "Cache-Control": withNoTransform(options.cacheControl),
  };
  const verdict = checkPreconditions(request.headers, file);
  if (verdict === 412) return plain(request, 412, "Precondition Failed", always);
  if (verdict === 304) return new Response(null, { status: 304, headers: validators });

  const headers: Record<string, string> = { ...validators, "Accept-Ranges": "bytes", "Content-Type": options.contentType };
  if (options.disposition) headers["Content-Disposition"] = options.disposition;
  // Range is defined for GET only (RFC 9110 §14.2): a HEAD describes the whole file.
  const honoured = request.method === "GET" && ifRangeHolds(request.headers.get("if-range"), file, stored.lastModified);
  const range = honoured ? parseRange(request.headers.get("range"), size) : null;
  if (range === "unsatisfiable") return plain(request, 416, "Range Not Satisfiable", { ...always, "Content-Range": `bytes */${size}` });

  const { start, end } = range ?? { start: 0, end: size - 1 };
  headers["Content-Length"] = String(end - start + 1);
  headers[FILE_LENGTH_HEADER] = headers["Content-Length"]; // Next drops Content-Length: see restoreContentLength
  if (range) headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
  const body = request.method === "HEAD" || size === 0 ? null : await stored.stream(start, end);
  return new Response(body, { status: range ? 206 : 200, headers });
}
