import "server-only";
import path from "node:path";
import { z } from "zod";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const schema = z.object({
  PORT: positiveInt(3000),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** The studio's public origin (share links, callbacks). */
  APP_URL: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  AUTH_SECRET: z.string().optional(),
  /**
   * A PGlite data folder a new DATA_DIR's database is copied from instead of created
   * (lib/db/pglite-init.ts): the test suites, which open a fresh database per file, set it.
   */
  X3D_PGLITE_TEMPLATE: z
    .string()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /**
   * How many reverse proxies in front of the studio append to X-Forwarded-For (0: none, the
   * client address is the socket's; see lib/accounts/client-address.ts).
   */
  TRUST_PROXY: z.coerce
    .number({ error: "must be the number of proxies in front of the studio (0 = none)" })
    .int("must be the number of proxies in front of the studio (0 = none)")
    .min(0, "must be the number of proxies in front of the studio (0 = none)")
    .max(10, "must be at most 10 proxies")
    .default(0),
  /** Sign-ups one client address makes before each next one waits (lib/accounts/throttle.ts). */
  SIGN_UPS_PER_ADDRESS: positiveInt(5),
  AUTH_GITHUB_ID: z.string().optional(),
  AUTH_GITHUB_SECRET: z.string().optional(),
  /**
   * Where stored files go (lib/files/store): unset, under DATA_DIR; `s3://<bucket>/<prefix>`, an
   * S3-compatible bucket, reached with the AWS SDK's own variables (AWS_ACCESS_KEY_ID,
   * AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL_S3).
   */
  X3D_STORAGE: z
    .string()
    .regex(
      /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/,
      "must be s3://<bucket>/<prefix> (a bucket name of 3 to 63 lower-case letters, digits, dots or dashes)",
    )
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** Path-style S3 addresses (https://host/bucket/key), which MinIO, s3rver and some others need. */
  X3D_S3_FORCE_PATH_STYLE: flag,
  X3D_BASE_URL: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  X3D_CLIENT_ID: z.string().optional(),
  X3D_CLIENT_SECRET: z.string().optional(),
  X3D_ENGINE: z.enum(["on", "off"]).default("on"),
  /**
   * What this process does (lib/roles.ts): `all`, everything (one server); `web`, pages, the
   * API and files, never generating; `worker`, generation, result copies, display copies,
   * callbacks and housekeeping, answering only /api/health. web and worker need DATABASE_URL.
   */
  X3D_ROLE: z.enum(["all", "web", "worker"], { error: "must be all, web or worker" }).default("all"),
  /** Where a worker reaches the web servers (their embedded service); default APP_URL. */
  X3D_WEB_URL: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL, e.g. http://web:3000" })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** How long a task whose create answer was lost waits for the service's callback before it settles as failed. */
  X3D_CHECKING_WINDOW_SECONDS: positiveInt(1800),
  X3D_ENGINE_BALANCE: z.coerce.number().int().nonnegative().default(1000),
  X3D_ENGINE_CONCURRENCY: positiveInt(10),
  X3D_ENGINE_WORKERS: z.coerce.number().int().nonnegative().default(0),
  X3D_ENGINE_URL_TTL: positiveInt(3600),
  X3D_ENGINE_PUBLIC_URL: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  X3D_ENGINE_ALLOW_PRIVATE_URLS: flag,
  X3D_ENGINE_TASK_TIMEOUT: positiveInt(3600),
  X3D_ENGINE_MIN_TASK_SECONDS: z.coerce.number().nonnegative().default(0),
  X3D_ENGINE_CALLBACK_BACKOFF_MS: positiveInt(2000),
  X3D_ENGINE_LEASE_SECONDS: positiveInt(30),
  X3D_ENGINE_BODY_TIMEOUT: positiveInt(30),
  /** Hours a finished task's files are kept; fractions allowed, 0 keeps them forever. */
  X3D_ENGINE_RETENTION_HOURS: z.coerce.number().nonnegative().default(72),
  X3D_ENGINE_COSTS: z.string().optional(),
  /**
   * Comma-separated e-mails of the studio's admins (lib/accounts/roles.ts). Unset or empty: the
   * first account made on this install is the admin.
   */
  ADMIN_EMAILS: z
    .string()
    .optional()
    .transform((v) => {
      const list = (v ?? "")
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean);
      return list.length ? list : undefined;
    }),
  /** Credits a new account may spend until an admin changes its allowance (lib/credits). */
  X3D_DEFAULT_ALLOWANCE: z.coerce.number().int().nonnegative().default(500),
  /** When set, /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, it is open. */
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  /**
   * The token of the operations routes (GET /api/ops/backup, lib/ops); unset, one is generated
   * once into DATA_DIR/ops-token. At least 16 characters: it guards a copy of the whole database.
   */
  X3D_OPS_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || v.length >= 16, "must be at least 16 characters (it guards a copy of the whole database)"),
});

/** Settings that only make sense together (each issue names the variable to change). */
const checked = schema.superRefine((env, ctx) => {
  if (env.X3D_ROLE !== "all" && !env.DATABASE_URL)
    ctx.addIssue({
      code: "custom",
      path: ["X3D_ROLE"],
      message: `X3D_ROLE=${env.X3D_ROLE} needs DATABASE_URL: the embedded database belongs to one process, so web servers and workers share a PostgreSQL`,
    });
  const reachesEmbedded = env.X3D_ENGINE === "on" && !env.X3D_BASE_URL;
  if (env.X3D_ROLE === "worker" && reachesEmbedded && !env.X3D_WEB_URL && !env.APP_URL)
    ctx.addIssue({
      code: "custom",
      path: ["X3D_WEB_URL"],
      message: "a worker needs X3D_WEB_URL (or APP_URL): where it reaches the web servers' embedded service, e.g. http://web:3000",
    });
});

export type ServerEnv = z.infer<typeof schema>;

let cached: ServerEnv | undefined;

/** process.env parsed once; a bad value stops the app with the variable's name. */
export function serverEnv(): ServerEnv {
  cached ??= parseServerEnv(process.env);
  return cached;
}

/** `source` parsed as the server's settings; throws naming each bad variable and what it must be. */
export function parseServerEnv(source: Record<string, string | undefined>): ServerEnv {
  const parsed = checked.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return { ...parsed.data, DATA_DIR: path.resolve(parsed.data.DATA_DIR) };
}

/** Where a worker (X3D_ROLE=worker) reaches the web servers: X3D_WEB_URL, else the app's origin. */
export function webUrl(): string {
  return serverEnv().X3D_WEB_URL ?? appOrigin();
}

/** Where the studio is reached from outside: APP_URL, else http://localhost:PORT. */
export function appOrigin(): string {
  const env = serverEnv();
  return (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
}
