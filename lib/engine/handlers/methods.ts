import "server-only";
import { fail } from "../envelope";
import { engineOff } from "./common";

/**
 * Handlers for the methods an Open API route does not take. Next's own 405 has no body, and
 * clients read every answer as the envelope: this one is 10030014 with HTTP 405 and Allow.
 * OPTIONS is answered here too, because Next's automatic one would list these handlers as
 * allowed methods.
 */
export function otherMethods(method: "GET" | "POST") {
  const allow = method === "GET" ? "GET, HEAD, OPTIONS" : "POST, OPTIONS";
  const refuse = async (): Promise<Response> => {
    const off = engineOff();
    if (off) return off;
    const response = fail(10030014, `this endpoint takes ${method}`);
    response.headers.set("Allow", allow);
    return response;
  };
  const options = async (): Promise<Response> => engineOff() ?? new Response(null, { status: 204, headers: { Allow: allow } });
  return { GET: refuse, POST: refuse, PUT: refuse, DELETE: refuse, PATCH: refuse, OPTIONS: options };
}
