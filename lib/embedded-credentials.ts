import "server-only";
import crypto from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { serverEnv } from "@/lib/env";
import { readOrCreateFile } from "@/lib/files/create-once";
import { registerSecret } from "@/lib/log";

/**
 * The client pair of the embedded service: the one it accepts (lib/engine/config) and the one
 * the studio's client sends it (lib/x3d/service), read here so neither imports the other.
 */
export interface ClientPair {
  clientId: string;
  clientSecret: string;
}

/** The development client pair, generated once per data directory so `npm start` needs no setup. */
export function developmentCredentials(dataDir: string): ClientPair {
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
  registerSecret(pair.data.clientSecret);
  return pair.data;
}

/**
 * X3D_CLIENT_ID and X3D_CLIENT_SECRET when both are set; else the pair generated for DATA_DIR
 * (`generated`, so it may be printed at start).
 */
export function embeddedCredentials(): ClientPair & { generated: boolean } {
  const env = serverEnv();
  if (env.X3D_CLIENT_ID && env.X3D_CLIENT_SECRET)
    return { clientId: env.X3D_CLIENT_ID, clientSecret: env.X3D_CLIENT_SECRET, generated: false };
  return { ...developmentCredentials(env.DATA_DIR), generated: true };
}
