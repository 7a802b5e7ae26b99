import "server-only";
import { serverEnv } from "@/lib/env";

/**
 * Whether a request that changes something came from the studio's own pages. Browsers send
 * Origin on every POST, PUT, PATCH and DELETE, and a page cannot forge it, so a foreign one
 * means another site is riding on the user's cookie (SameSite=Lax lets a sibling subdomain or
 * another port of the same host send it); a missing or "null" one is not a browser on our page
 * either. The studio's origin is APP_URL's when set (behind a proxy that rewrites Host), else
 * the Host the request came to, whatever the scheme (which a proxy may have ended).
 */
export function isSameOrigin(headers: Headers, appUrl: string | undefined): boolean {
  const origin = headers.get("origin");
  if (!origin || origin === "null") return false;
  let sent: URL;
  try {
    sent = new URL(origin);
  } catch {
    return false;
  }
  if (appUrl) return sent.origin === new URL(appUrl).origin;
  const host = headers.get("host");
  return !!host && sent.host === host.toLowerCase();
}

/**
 * For route handlers that change state: the 403 to answer when the request did not come from
 * the studio's own pages, else null. Server actions need no such check: Next compares their
 * Origin with the Host itself.
 */
export function refuseCrossSite(request: Request): Response | null {
  if (isSameOrigin(request.headers, serverEnv().APP_URL)) return null;
  return Response.json(
    { error: "This request came from another site (or did not say where from), so the studio refused it. Use the studio's own pages." },
    { status: 403 },
  );
}
