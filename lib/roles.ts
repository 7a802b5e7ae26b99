import "server-only";
import { serverEnv } from "@/lib/env";

/**
 * What a process of the app does (X3D_ROLE):
 * - `all` (the default): everything, as one server;
 * - `web`: pages, the studio's API, the Open API and files; it queues work and never runs it;
 * - `worker`: the work: generation, the studio's result and display copies, callback
 *   deliveries and housekeeping; it answers only /api/health.
 * Web servers and workers share one PostgreSQL (and one bucket, or one DATA_DIR).
 */
export type Role = "all" | "web" | "worker";

export const serverRole = (): Role => serverEnv().X3D_ROLE;

/** Whether this process runs the background work (generation, copies, callbacks, housekeeping). */
export const runsWork = (): boolean => serverRole() !== "web";
