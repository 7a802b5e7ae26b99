import type { NextRequest } from "next/server";
import { refuseCrossSite } from "@/lib/http/same-origin";
import { handlers } from "@/lib/accounts";

export const { GET } = handlers;

/**
 * Auth.js's POSTs (sign-out, credentials callback) come from the studio's own pages; its CSRF
 * token guards them too, the Origin check refuses another site before Auth.js reads anything.
 */
export async function POST(request: NextRequest) {
  return refuseCrossSite(request) ?? handlers.POST(request);
}
