import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { serverEnv } from "@/lib/env";

let cached: string | undefined;

/** AUTH_SECRET, or one generated once into DATA_DIR so a fresh start needs no setup. */
export function authSecret(): string {
  if (cached) return cached;
  const env = serverEnv();
  if (env.AUTH_SECRET) return (cached = env.AUTH_SECRET);
  const file = path.join(env.DATA_DIR, "auth-secret");
  try {
    cached = fs.readFileSync(file, "utf8").trim();
    if (cached) return cached;
  } catch {
    // first start
  }
  fs.mkdirSync(env.DATA_DIR, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch {
    // another process wrote it first
  }
  cached = fs.readFileSync(file, "utf8").trim();
  return cached;
}
