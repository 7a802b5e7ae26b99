import { NextResponse, type NextRequest } from "next/server";

/**
 * Next answers a dynamic route whose path segment is not percent-encoded UTF-8 ("%C0%AE")
 * with a bare HTTP 500 before any route code runs. No signed file link looks like that: it
 * is answered as the file route answers any link it does not know, 404.
 */
export function proxy(request: NextRequest): NextResponse {
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return new NextResponse("Not Found", { status: 404 });
  }
  return NextResponse.next();
}

export const config = { matcher: "/open-api/v1/files/:path*" };
