import { checkHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

/**
 * GET /api/health, public: {status, checks: {database, storage, service}}, each {ok, ms,
 * error?}; 200 when every part answers, 503 naming the failing ones otherwise.
 */
export async function GET() {
  const health = await checkHealth();
  return Response.json(health, { status: health.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
