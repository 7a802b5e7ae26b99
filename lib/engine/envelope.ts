import "server-only";
import { ERRORS, type ErrorCode } from "@/lib/x3d/errors";
import { EngineError } from "./engine-error";
import { log } from "@/lib/log";

const json = (body: unknown, status: number) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

/** `{code: 200, data, msg: "success"}` */
export function ok(data: Record<string, unknown>, extra?: Record<string, unknown>): Response {
  return json({ code: 200, data, msg: "success", ...extra }, 200);
}

/** The error envelope: integer code, empty data, the catalogue's msg (plus what was wrong). */
export function fail(code: ErrorCode, detail?: string, extra?: Record<string, unknown>): Response {
  const msg = detail ? `${ERRORS[code].msg}: ${detail}` : ERRORS[code].msg;
  return json({ code, data: {}, msg, ...extra }, ERRORS[code].http);
}

/** Runs a handler, turning EngineErrors into envelopes and anything else into 10000000. */
export async function answer(handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof EngineError) return fail(error.code, error.detail);
    log.error({ err: error }, "[x3d engine] internal error");
    return fail(10000000);
  }
}

export function unauthorized(): Response {
  return json({ code: 401, msg: "Unauthorized", data: {} }, 401);
}
