import "server-only";
import { engineConfig } from "@/lib/engine/config";
import { engine } from "@/lib/engine/boot";
import { serverEnv } from "@/lib/env";
import { closeDatabase } from "@/lib/db";
import { installShutdown, onShutdown } from "@/lib/shutdown";
import { startDeletedTaskSweeps } from "@/lib/tasks/delete-task";

/**
 * Handles SIGTERM/SIGINT (lib/shutdown), starts the studio's housekeeping, boots the embedded service (unless X3D_ENGINE=off)
 * and prints where it is and the credentials in use.
 */
export async function startServices(): Promise<void> {
  installShutdown();
  onShutdown("the database", "close", closeDatabase);
  // The studio's housekeeping: retries file removals of deleted tasks (lib/tasks/delete-task).
  onShutdown("the studio's housekeeping", "drain", startDeletedTaskSweeps());
  const env = serverEnv();
  if (env.X3D_ENGINE === "off") {
    console.log("[x3d] embedded service off (X3D_ENGINE=off)");
    return;
  }
  const config = engineConfig();
  await engine();
  const origin = config.publicOrigin;
  console.log(
    [
      `[x3d] studio:            ${origin}`,
      `[x3d] embedded service:  ${origin}/open-api/v1`,
      `[x3d] client id:         ${config.clientId}`,
      `[x3d] client secret:     ${config.generatedCredentials ? config.clientSecret : "(from X3D_CLIENT_SECRET)"}`,
      `[x3d] data:              ${config.dataDir}${env.DATABASE_URL ? " (database: DATABASE_URL)" : " (embedded database)"}`,
    ].join("\n"),
  );
}
