import crypto from "node:crypto";
import { noneMatchHolds } from "@/lib/files/conditions";

/**
 * A JSON answer with a strong ETag of its bytes: a page that polls with If-None-Match gets
 * 304 and no body while nothing changed. `no-cache` makes the browser revalidate each time
 * (its fetch sends the validator itself), and `private` keeps it out of shared caches.
 * `no-transform` keeps `next start` from gzipping it: a task page polls every two seconds, and a
 * gzip stream per answer (a zlib context, chunked writes; `next start` streams route answers
 * without a length, so even half a kilobyte is gzipped) costs the web thread more than the few
 * hundred bytes it saves on the wire.
 */
export function jsonWithEtag(request: Request, value: unknown): Response {
  const body = JSON.stringify(value);
  const etag = `"${crypto.createHash("sha1").update(body).digest("base64url")}"`;
  const headers = { ETag: etag, "Cache-Control": "private, no-cache, no-transform" };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null && noneMatchHolds(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "application/json" } });
}
