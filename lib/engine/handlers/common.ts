import "server-only";
import { authenticate } from "../auth";
import { engine } from "../boot";
import { serverEnv } from "@/lib/env";
import { unauthorized } from "../envelope";

export const BEARER = ["Bearer"] as const;
/** Split query and segmentation are documented with `Token`; Bearer is accepted there too. */
export const TOKEN_OR_BEARER = ["Token", "Bearer"] as const;

/**
 * Gate of every service route: 404 when the embedded service is switched off, 401 without a
 * valid token, otherwise the client id for `handle`.
 */
export async function authorized(
  request: Request,
  schemes: readonly string[],
  handle: (clientId: string) => Promise<Response>,
): Promise<Response> {
  const off = engineOff();
  if (off) return off;
  await engine();
  const clientId = await authenticate(request.headers.get("authorization"), schemes);
  if (!clientId) return unauthorized();
  return handle(clientId);
}

export function engineOff(): Response | undefined {
  return serverEnv().X3D_ENGINE === "off" ? new Response("Not Found", { status: 404 }) : undefined;
}
