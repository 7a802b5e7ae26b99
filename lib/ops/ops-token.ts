import "server-only";
import crypto from "node:crypto";
import path from "node:path";
import { serverEnv } from "@/lib/env";
import { readOrCreateFile } from "@/lib/files/create-once";
import { bearerMatches } from "@/lib/http/bearer";
import { registerSecret } from "@/lib/log";

/** The ops token's file under DATA_DIR, read by `npm run backup` (scripts/backup.mjs). */
export const OPS_TOKEN_FILE = "ops-token";

let cached: string | undefined;

/**
 * The token the operations routes (GET /api/ops/backup) take as `Authorization: Bearer …`:
 * X3D_OPS_TOKEN, or 32 random bytes generated once into DATA_DIR/ops-token (mode 0600), as the
 * session key is, so a fresh install needs no setup and `npm run backup` finds it beside the data.
 */
export function opsToken(): string {
  if (cached) return cached;
  const env = serverEnv();
  if (env.X3D_OPS_TOKEN) return (cached = env.X3D_OPS_TOKEN);
  const file = path.join(env.DATA_DIR, OPS_TOKEN_FILE);
  const token = readOrCreateFile(file, () => crypto.randomBytes(32).toString("base64url")).trim();
  if (!token) throw new Error(`${file} is empty: remove it (a new token is generated) or set X3D_OPS_TOKEN`);
  registerSecret(token);
  cached = token;
  return cached;
}

/** Whether an Authorization header carries the ops token (compared in constant time). */
export function opsAuthorized(authorization: string | null | undefined): boolean {
  return bearerMatches(authorization, opsToken());
}
