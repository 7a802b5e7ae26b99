// Starts the embedded x3d service with the server, so queued tasks resume after a restart
// without waiting for a request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // `next build` runs this in the workers that render static pages: the service, its queue and
  // the database are the server's, never the build's (a build beside a running server on the
  // same DATA_DIR would open its database a second time, and run its queued tasks).
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // Logs are JSON lines with a request id (lib/log): what Next and libraries print goes through
  // the logger too, and the configured credentials are scrubbed from every line.
  const { log, registerSecret, routeConsoleToLog, withLogContext } = await import("./lib/log");
  const { serverEnv } = await import("./lib/env");
  const env = serverEnv();
  for (const secret of [env.X3D_CLIENT_SECRET, env.AUTH_SECRET, env.AUTH_GITHUB_SECRET, env.METRICS_TOKEN, env.X3D_OPS_TOKEN])
    registerSecret(secret);
  routeConsoleToLog();
  // A worker (X3D_ROLE=worker) answers only /api/health: no page, API or file route runs there.
  if (env.X3D_ROLE === "worker") {
    const { serveOnlyHealth } = await import("./lib/http/worker-gate");
    serveOnlyHealth();
  }
  // Each request is served under an id (its x-request-id when sane), on every line it logs.
  const { stampRequestIds } = await import("./lib/http/request-id");
  stampRequestIds();
  // Next drops Content-Length from route-handler responses; file routes need it (lib/files/restore-content-length).
  const { restoreContentLength } = await import("./lib/files/restore-content-length");
  restoreContentLength();
  // Sign-in and sign-up throttling count per client address, stamped from the socket as each
  // request arrives (Next's own x-forwarded-for is whatever the client sent, when it sent one).
  const { stampClientAddress } = await import("./lib/accounts/stamp-client-address");
  stampClientAddress(env.TRUST_PROXY);
  const { startServices } = await import("./lib/start-services");
  try {
    await withLogContext("startup", startServices);
  } catch (error) {
    // DATA_DIR's embedded database is open in another process (lib/db/data-dir-lock.mjs): this
    // server stops, saying which, instead of serving pages that cannot reach a database.
    const { DATA_DIR_IN_USE } = await import("./lib/db/data-dir-lock.mjs");
    if ((error as { code?: unknown }).code === DATA_DIR_IN_USE) {
      log.fatal({ err: error }, `[x3d] not started: ${(error as Error).message}`);
      process.exit(1);
    }
    throw error;
  }
}
