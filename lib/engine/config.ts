import "server-only";
import os from "node:os";
import path from "node:path";
import { embeddedCredentials } from "@/lib/embedded-credentials";
import { appOrigin, serverEnv, webUrl } from "@/lib/env";
import { costsWithOverrides } from "@/lib/x3d/cost-overrides";
import type { CostTable } from "@/lib/x3d/costs";

export interface EngineConfig {
  dataDir: string;
  /** Task inputs, results and staging live here. */
  filesDir: string;
  clientId: string;
  clientSecret: string;
  /** True when the pair was generated for this data directory (no X3D_CLIENT_ID/SECRET). */
  generatedCredentials: boolean;
  startingBalance: number;
  concurrencyPerClient: number;
  workerThreads: number;
  urlTtlSeconds: number;
  publicOrigin: string;
  /**
   * On a worker (X3D_ROLE=worker): where it reaches the web servers (X3D_WEB_URL, else APP_URL),
   * to which it delivers callbacks addressed to the app itself; null elsewhere.
   */
  webOrigin: string | null;
  allowPrivateUrls: boolean;
  taskTimeoutMs: number;
  minTaskMs: number;
  callbackBackoffMs: number;
  leaseMs: number;
  /** A create request's body that sends nothing for this long is given up. */
  bodyIdleMs: number;
  /** A finished task's files are removed this long after it finished; null keeps them. */
  retentionMs: number | null;
  costs: CostTable;
}

/** Worker threads when X3D_ENGINE_WORKERS is unset: every core but one, at least one. */
export const defaultWorkerThreads = (cores: number): number => Math.max(1, cores - 1);

let cached: EngineConfig | undefined;

/** The embedded service's settings, from the environment (see README). */
export function engineConfig(): EngineConfig {
  if (cached) return cached;
  const env = serverEnv();
  const pair = embeddedCredentials();
  cached = {
    dataDir: env.DATA_DIR,
    filesDir: path.join(env.DATA_DIR, "engine"),
    clientId: pair.clientId,
    clientSecret: pair.clientSecret,
    generatedCredentials: pair.generated,
    startingBalance: env.X3D_ENGINE_BALANCE,
    concurrencyPerClient: env.X3D_ENGINE_CONCURRENCY,
    // One core stays free for the web server: polls and pages must not queue behind generation.
    workerThreads: env.X3D_ENGINE_WORKERS || defaultWorkerThreads(os.availableParallelism()),
    urlTtlSeconds: env.X3D_ENGINE_URL_TTL,
    publicOrigin: (env.X3D_ENGINE_PUBLIC_URL ?? appOrigin()).replace(/\/+$/, ""),
    webOrigin: env.X3D_ROLE === "worker" ? new URL(webUrl()).origin : null,
    allowPrivateUrls: env.X3D_ENGINE_ALLOW_PRIVATE_URLS,
    taskTimeoutMs: env.X3D_ENGINE_TASK_TIMEOUT * 1000,
    minTaskMs: env.X3D_ENGINE_MIN_TASK_SECONDS * 1000,
    callbackBackoffMs: env.X3D_ENGINE_CALLBACK_BACKOFF_MS,
    leaseMs: env.X3D_ENGINE_LEASE_SECONDS * 1000,
    bodyIdleMs: env.X3D_ENGINE_BODY_TIMEOUT * 1000,
    retentionMs: env.X3D_ENGINE_RETENTION_HOURS > 0 ? Math.round(env.X3D_ENGINE_RETENTION_HOURS * 3_600_000) : null,
    costs: costsWithOverrides(env.X3D_ENGINE_COSTS),
  };
  return cached;
}
