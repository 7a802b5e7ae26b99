import { NextResponse, type NextRequest } from "next/server";
import { serverEnv } from "@/lib/env";
import { newNonce, pagePolicy } from "@/lib/http/content-security-policy";

/**
 * Next answers a dynamic route whose path segment is not percent-encoded UTF-8 ("%C0%AE")
 * with a bare HTTP 500 before any route code runs. No signed file link looks like that: it
 * is answered as the file route answers any link it does not know, 404.
 */
function undecodableFileLink(request: NextRequest): NextResponse | null {
  try {
    decodeURIComponent(request.nextUrl.pathname);
    return null;
  } catch {
    return new NextResponse("Not Found", { status: 404 });
  }
}

/** GitHub's sign-in page, when enabled: the sign-in form's POST is redirected there. */
const formTargets = () => {
  const env = serverEnv();
  return env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET ? ["https://github.com"] : [];
};

/**
 * A page: a fresh nonce in a Content-Security-Policy on the request (Next reads the nonce from
 * it and puts it on every script it renders; every page is dynamic, so each gets its own) and
 * on the response. The other security headers come from next.config.js, for every route.
 */
function withPagePolicy(request: NextRequest): NextResponse {
  const policy = pagePolicy({ nonce: newNonce(), dev: process.env.NODE_ENV === "development", formTargets: formTargets() });
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export function proxy(request: NextRequest): NextResponse {
  if (request.nextUrl.pathname.startsWith("/open-api/v1/files/")) return undecodableFileLink(request) ?? NextResponse.next();
  return withPagePolicy(request);
}

/**
 * Pages, and signed file links; never the other routes (/api, /open-api, /metrics). A proxy that matches a route cuts its
 * request body at 10 MB (proxyClientMaxBodySize), silently: /api/uploads and the Open API's
 * create routes take models of up to 200 MB. Next's own static files and public/ (the Draco
 * decoder, the viewer's environment map, the home page's sample images) need no nonce either.
 */
export const config = {
  matcher: [
    "/open-api/v1/files/:path*",
    "/((?!api(?:/|$)|open-api(?:/|$)|metrics$|_next/static/|_next/image|draco/|env/|samples/|favicon\\.ico).*)",
  ],
};
