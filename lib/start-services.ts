import "server-only";
import path from "node:path";
import { engineConfig } from "@/lib/engine/config";
import { engine } from "@/lib/engine/boot";
import { serverEnv, webUrl } from "@/lib/env";
import { closeDatabase, database } from "@/lib/db";
import { log } from "@/lib/log";
import { installShutdown, onShutdown } from "@/lib/shutdown";
import { opsToken } from "@/lib/ops/ops-token";
import { serverRole } from "@/lib/roles";
import { startDeletedTaskSweeps } from "@/lib/tasks/lifecycle/delete-task";
import { startSaveSweeps } from "@/lib/tasks/lifecycle/save-sweeps";
import { releaseLeasesAtStart } from "@/lib/tasks/lifecycle/refresh";
import { taskChangeRelay } from "@/lib/tasks/lifecycle/live/publish";

/**
 * Handles SIGTERM/SIGINT (lib/shutdown), starts the studio's background work by role (lib/roles:
 * housekeeping everywhere but on web servers, result saving on workers), boots the embedded
 * service (unless X3D_ENGINE=off; it runs its queue only where the role runs work) and logs
 * where it is, its role and the client id in use (never a secret: a generated pair's secret is
 * in DATA_DIR/x3d-credentials.json).
 */
export async function startServices(): Promise<void> {
  installShutdown();
  onShutdown("the database", "close", closeDatabase);
  // The listening connection of the task pages' live updates (PostgreSQL only; lib/tasks/lifecycle/live).
  onShutdown("the task change listener", "close", async () => taskChangeRelay()?.stop());
  const env = serverEnv();
  const role = serverRole();
  // The backup route's token, generated into DATA_DIR/ops-token now (unless X3D_OPS_TOKEN is set)
  // so `npm run backup` finds it before any request; a worker serves no such route.
  if (role !== "worker") opsToken();
  // Leases a kill left on the embedded database are this server's own: free them now.
  if ((await database()).kind === "pglite") {
    const freed = await releaseLeasesAtStart();
    if (freed > 0) log.info(`[studio] freed the result-saving leases of ${freed} task(s) left by the last run`);
  }
  // The studio's housekeeping: retries file removals of deleted tasks (lib/tasks/lifecycle/delete-task).
  if (role !== "web") onShutdown("the studio's housekeeping", "drain", startDeletedTaskSweeps());
  // Web servers leave saving results to the workers (lib/tasks/lifecycle/save-sweeps).
  if (role === "worker") onShutdown("the studio's result saving", "drain", startSaveSweeps());
  if (env.X3D_ENGINE === "off") {
    log.info(`[x3d] ${role === "all" ? "" : `role ${role}, `}embedded service off (X3D_ENGINE=off)`);
    return;
  }
  const config = engineConfig();
  await engine();
  const origin = config.publicOrigin;
  const secret = config.generatedCredentials ? path.join(config.dataDir, "x3d-credentials.json") : "X3D_CLIENT_SECRET";
  const data = `${config.dataDir}${env.DATABASE_URL ? " (database: DATABASE_URL)" : " (embedded database)"}`;
  const roleNote = { all: "", web: "web server (workers generate), ", worker: `worker (web servers at ${webUrl()}), ` }[role];
  log.info(
    { role, studio: origin, service: `${origin}/open-api/v1`, clientId: config.clientId, data },
    `[x3d] ${roleNote}studio ${origin}, embedded service ${origin}/open-api/v1, client id ${config.clientId} (secret: ${secret}), data ${data}`,
  );
}
