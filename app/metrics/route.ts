import { serverEnv } from "@/lib/env";
import { bearerMatches } from "@/lib/http/bearer";
import { log } from "@/lib/log";
import { metricsText } from "@/lib/metrics/scrape";

export const dynamic = "force-dynamic";

/**
 * GET /metrics: Prometheus text (prom-client): task counts by kind and state, queue depth,
 * task durations, upload bytes, polls and the process's own figures. With METRICS_TOKEN set,
 * only for `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); unset, open to anyone
 * who reaches the server.
 */
export async function GET(request: Request) {
  const token = serverEnv().METRICS_TOKEN;
  if (token && !bearerMatches(request.headers.get("authorization"), token))
    return new Response("Unauthorized\n", {
      status: 401,
      headers: { "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" },
    });
  try {
    const { contentType, body } = await metricsText();
    return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
  } catch (error) {
    log.error({ err: error }, "metrics: reading the task counts failed");
    return new Response("metrics unavailable: the database did not answer\n", { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
