import { checkHealth } from "@/lib/health";
import { serverRole } from "@/lib/roles";

export const dynamic = "force-dynamic";

/**
 * GET /api/health, public: {status, role, checks: {database, storage, service}}, each {ok, ms,
 * error?}; 200 when every part answers, 503 naming the failing ones otherwise. The one route a
 * worker answers (X3D_ROLE=worker); its `service` check reaches the web servers.
 */
export async function GET() {
  const health = await checkHealth();
  return Response.json(
    { status: health.status, role: serverRole(), checks: health.checks },
    { status: health.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
