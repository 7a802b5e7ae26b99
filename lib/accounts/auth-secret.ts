import "server-only";
import crypto from "node:crypto";
import path from "node:path";
import { serverEnv } from "@/lib/env";
import { readOrCreateFile } from "@/lib/files/create-once";
import { registerSecret } from "@/lib/log";

let cached: string | undefined;

/** AUTH_SECRET, or one generated once into DATA_DIR so a fresh start needs no setup. */
export function authSecret(): string {
  if (cached) return cached;
  const env = serverEnv();
  if (env.AUTH_SECRET) return (cached = env.AUTH_SECRET);
  const file = path.join(env.DATA_DIR, "auth-secret");
  const secret = readOrCreateFile(file, () => crypto.randomBytes(32).toString("base64url")).trim();
  // Auth.js refuses an empty secret on every request (MissingSecret): say which file is at fault, once.
  if (!secret) throw new Error(`${file} is empty: remove it (a new secret is generated; sessions are signed out) or set AUTH_SECRET`);
  registerSecret(secret);
  cached = secret;
  return cached;
}
