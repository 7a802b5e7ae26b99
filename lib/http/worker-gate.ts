import "server-only";
import http from "node:http";
import { oncePerProcess } from "@/lib/global-singleton";

/** The one route a worker answers: load balancers and orchestrators probe it. */
const WORKER_PATHS: readonly string[] = ["/api/health"];

/**
 * A worker's answer to anything but WORKER_PATHS: 404 with a sentence saying why, before the
 * request reaches Next (so no page, API, upload or file route runs on a worker).
 */
export function workerRefusal(method: string | undefined, url: string | undefined): { status: number; body: string } | null {
  const pathname = (url ?? "/").replace(/[?#].*$/, "").replace(/\/+$/, "") || "/";
  if (WORKER_PATHS.includes(pathname) && (method === "GET" || method === "HEAD")) return null;
  return {
    status: 404,
    body: JSON.stringify({
      error: `This is a worker (X3D_ROLE=worker): it runs the work and answers only GET ${WORKER_PATHS.join(", ")}. Pages and APIs are on the web servers.`,
    }),
  };
}

/**
 * Makes every Node HTTP server of this process answer only WORKER_PATHS (X3D_ROLE=worker).
 * Once per process, at startup (instrumentation.ts), before requests.
 */
export function serveOnlyHealth(): void {
  oncePerProcess("x3d.serveOnlyHealth", () => {
    const proto = http.Server.prototype;
    const emit = proto.emit;
    proto.emit = function gatedEmit(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request" && args[0] instanceof http.IncomingMessage && args[1] instanceof http.ServerResponse) {
        const refusal = workerRefusal(args[0].method, args[0].url);
        if (refusal) {
          const body = Buffer.from(refusal.body);
          args[1].writeHead(refusal.status, {
            "Content-Type": "application/json",
            "Content-Length": body.length,
            "Cache-Control": "no-store",
          });
          args[1].end(body);
          // Drain what the client sends, so its connection is not left hanging.
          args[0].resume();
          return true;
        }
      }
      return (emit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
    };
  });
}
