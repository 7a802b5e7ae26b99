import "server-only";
import path from "node:path";
import { engineConfig } from "@/lib/engine/config";
import { engine } from "@/lib/engine/boot";
import { serverEnv } from "@/lib/env";
import { closeDatabase } from "@/lib/db";
import { log } from "@/lib/log";
import { installShutdown, onShutdown } from "@/lib/shutdown";
import { startDeletedTaskSweeps } from "@/lib/tasks/lifecycle/delete-task";
import { taskChangeRelay } from "@/lib/tasks/lifecycle/live/publish";

/**
 * Handles SIGTERM/SIGINT (lib/shutdown), starts the studio's housekeeping, boots the embedded
 * service (unless X3D_ENGINE=off) and logs where it is and the client id in use (never a
 * secret: a generated pair's secret is in DATA_DIR/x3d-credentials.json).
 */
export async function startServices(): Promise<void> {
  installShutdown();
  onShutdown("the database", "close", closeDatabase);
  // The listening connection of the task pages' live updates (PostgreSQL only; lib/tasks/lifecycle/live).
  onShutdown("the task change listener", "close", async () => taskChangeRelay()?.stop());
  // The studio's housekeeping: retries file removals of deleted tasks (lib/tasks/lifecycle/delete-task).
  onShutdown("the studio's housekeeping", "drain", startDeletedTaskSweeps());
  const env = serverEnv();
  if (env.X3D_ENGINE === "off") {
    log.info("[x3d] embedded service off (X3D_ENGINE=off)");
    return;
  }
  const config = engineConfig();
  await engine();
  const origin = config.publicOrigin;
  const secret = config.generatedCredentials ? path.join(config.dataDir, "x3d-credentials.json") : "X3D_CLIENT_SECRET";
  const data = `${config.dataDir}${env.DATABASE_URL ? " (database: DATABASE_URL)" : " (embedded database)"}`;
  log.info(
    { studio: origin, service: `${origin}/open-api/v1`, clientId: config.clientId, data },
    `[x3d] studio ${origin}, embedded service ${origin}/open-api/v1, client id ${config.clientId} (secret: ${secret}), data ${data}`,
  );
}
