import "server-only";
import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { appOrigin, serverEnv } from "@/lib/env";
import { readOrCreateFile } from "@/lib/files/create-once";
import { DEFAULT_COSTS, type CostTable } from "@/lib/x3d/costs";

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

const costOverrides = z.object({
  imageTo3d: z.record(z.string(), z.tuple([z.number(), z.number(), z.number()])).optional(),
  split: z.number().nonnegative().optional(),
  depth: z.number().nonnegative().optional(),
  segmentation: z.number().nonnegative().optional(),
});

function readCosts(raw: string | undefined): CostTable {
  if (!raw) return DEFAULT_COSTS;
  const parsed = costOverrides.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`X3D_ENGINE_COSTS: ${parsed.error.issues[0]?.message}`);
  const o = parsed.data;
  return {
    imageTo3d: { ...DEFAULT_COSTS.imageTo3d, ...o.imageTo3d },
    split: o.split ?? DEFAULT_COSTS.split,
    depth: o.depth ?? DEFAULT_COSTS.depth,
    segmentation: o.segmentation ?? DEFAULT_COSTS.segmentation,
  };
}

/** The development client pair, generated once per data directory so `npm start` needs no setup. */
export function developmentCredentials(dataDir: string): { clientId: string; clientSecret: string } {
  const file = path.join(dataDir, "x3d-credentials.json");
  const text = readOrCreateFile(file, () =>
    JSON.stringify(
      { clientId: `dev_${crypto.randomBytes(6).toString("hex")}`, clientSecret: crypto.randomBytes(24).toString("base64url") },
      null,
      2,
    ),
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const pair = z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1) }).safeParse(parsed);
  // Was: read again and again until it parsed, which never ends for a damaged file (a stack overflow at every start).
  if (!pair.success)
    throw new Error(`${file} holds no client pair: remove it (a new pair is generated) or set X3D_CLIENT_ID and X3D_CLIENT_SECRET`);
  return pair.data;
}

/** Worker threads when X3D_ENGINE_WORKERS is unset: every core but one, at least one. */
export const defaultWorkerThreads = (cores: number): number => Math.max(1, cores - 1);

let cached: EngineConfig | undefined;

/** The embedded service's settings, from the environment (see README). */
export function engineConfig(): EngineConfig {
  if (cached) return cached;
  const env = serverEnv();
  const given = env.X3D_CLIENT_ID && env.X3D_CLIENT_SECRET;
  const pair = given ? { clientId: env.X3D_CLIENT_ID!, clientSecret: env.X3D_CLIENT_SECRET! } : developmentCredentials(env.DATA_DIR);
  cached = {
    dataDir: env.DATA_DIR,
    filesDir: path.join(env.DATA_DIR, "engine"),
    ...pair,
    generatedCredentials: !given,
    startingBalance: env.X3D_ENGINE_BALANCE,
    concurrencyPerClient: env.X3D_ENGINE_CONCURRENCY,
    // One core stays free for the web server: polls and pages must not queue behind generation.
    workerThreads: env.X3D_ENGINE_WORKERS || defaultWorkerThreads(os.availableParallelism()),
    urlTtlSeconds: env.X3D_ENGINE_URL_TTL,
    publicOrigin: (env.X3D_ENGINE_PUBLIC_URL ?? appOrigin()).replace(/\/+$/, ""),
    allowPrivateUrls: env.X3D_ENGINE_ALLOW_PRIVATE_URLS,
    taskTimeoutMs: env.X3D_ENGINE_TASK_TIMEOUT * 1000,
    minTaskMs: env.X3D_ENGINE_MIN_TASK_SECONDS * 1000,
    callbackBackoffMs: env.X3D_ENGINE_CALLBACK_BACKOFF_MS,
    leaseMs: env.X3D_ENGINE_LEASE_SECONDS * 1000,
    bodyIdleMs: env.X3D_ENGINE_BODY_TIMEOUT * 1000,
    retentionMs: env.X3D_ENGINE_RETENTION_HOURS > 0 ? Math.round(env.X3D_ENGINE_RETENTION_HOURS * 3_600_000) : null,
    costs: readCosts(env.X3D_ENGINE_COSTS),
  };
  return cached;
}
