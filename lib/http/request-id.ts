import "server-only";
import crypto from "node:crypto";
import http from "node:http";
import { oncePerProcess } from "@/lib/global-singleton";
import { withLogContext } from "@/lib/log";

const REQUEST_ID_HEADER = "x-request-id";

/** A request id a client or proxy may hand us: a short token of letters, digits and `._:-`. */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** A new request id: 16 random bytes, base64url. */
const newRequestId = () => crypto.randomBytes(16).toString("base64url");

/**
 * The id to serve a request under: the incoming `x-request-id` when it is one sane token (a
 * proxy's id keeps the lines of both together), else a new one. Anything else (several values,
 * spaces, control characters, 65 characters or more) is not echoed into logs or headers.
 */
export function requestIdFor(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : newRequestId();
}

/**
 * Makes every Node HTTP server of this process serve each request under a request id: set on
 * the request's and the response's `x-request-id`, and carried (lib/log) by everything that
 * runs for the request, so each line it logs has it. Next runs pages, route handlers, server
 * actions and the proxy in the process that received the request, within the `request`
 * event's call. Once per process; call it at startup, before requests (instrumentation.ts).
 */
export function stampRequestIds(): void {
  oncePerProcess("x3d.stampRequestIds", install);
}

function install(): void {
  const proto = http.Server.prototype;
  const emit = proto.emit;
  proto.emit = function requestIdEmit(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    const forward = () => (emit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
    const [request, response] = args;
    if (event !== "request" || !(request instanceof http.IncomingMessage) || !(response instanceof http.ServerResponse)) return forward();
    const id = requestIdFor(request.headers[REQUEST_ID_HEADER]);
    request.headers[REQUEST_ID_HEADER] = id;
    response.setHeader(REQUEST_ID_HEADER, id);
    return withLogContext(id, forward);
  };
}
