import "server-only";
/**
 * How the service client reaches the service: undici's fetch through an Agent with a timeout
 * for each phase, so a hung service cannot hold a form (or a refresh) for minutes. undici
 * rather than our own timers: its headers timer is refreshed while a request body is being
 * written, so a 200 MB upload on a slow link is not cut, and a connect timeout is only
 * possible at the socket.
 *
 * Whether a failed request may have reached the service matters to the studio: a create that
 * failed before sending can be retried, one that failed after may have been charged
 * (lib/tasks/create/create-task keeps such a task as "checking").
 */
import { Agent, fetch as undiciFetch } from "undici";

export interface Timeouts {
  /** Opening the connection (TCP and TLS). */
  connectMs: number;
  /** No byte of the answer's headers for this long, counted from the last byte of the request sent. */
  headersMs: number;
  /** No byte of the answer's body for this long. */
  bodyMs: number;
}

/** A create may make the service read and check 200 MB before it answers. */
export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 60_000, bodyMs: 30_000 };

/** fetch with the phase timeouts; the Agent keeps connections alive between calls. */
export function fetchWithTimeouts(timeouts: Timeouts = DEFAULT_TIMEOUTS): typeof fetch {
  const dispatcher = new Agent({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  });
  const bound = (input: string | URL | Request, init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher });
  return bound as unknown as typeof fetch;
}

// Failures that happen before a byte of the request can have been sent.
const NOT_SENT = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "ERR_INVALID_URL",
]);

/** The first `code` in an error's cause chain (fetch wraps undici's and the socket's errors). */
export function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether a request that failed with `error` may have reached the service (unknown: assume it may). */
export function mayHaveBeenSent(error: unknown): boolean {
  const code = errorCode(error);
  return !(code && NOT_SENT.has(code));
}

/** A short reason for logs and messages: "the service did not answer within 60 s", ... */
export function describeFailure(error: unknown, timeouts: Timeouts = DEFAULT_TIMEOUTS): string {
  switch (errorCode(error)) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return `could not connect within ${timeouts.connectMs / 1000} s`;
    case "UND_ERR_HEADERS_TIMEOUT":
      return `no answer within ${timeouts.headersMs / 1000} s`;
    case "UND_ERR_BODY_TIMEOUT":
      return `the answer stalled for ${timeouts.bodyMs / 1000} s`;
    case "ECONNREFUSED":
      return "connection refused";
    default:
      return error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  }
}
