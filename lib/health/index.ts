import "server-only";
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { fileStore } from "@/lib/files/store";
import { X3dError } from "@/lib/x3d/client";
import { x3d } from "@/lib/x3d/service";
import { CheckFailure, runChecks, type Health } from "./run-checks";

/** How long each part may take to answer before it counts as failing. */
const HEALTH_TIMEOUT_MS = 3_000;

export type HealthPart = "database" | "storage" | "service";

async function database(): Promise<void> {
  try {
    await (await db()).execute(sql`select 1`);
  } catch (error) {
    throw new CheckFailure("the database did not answer", { cause: error });
  }
}

/** Writes, reads back and removes a small file in the file store (the folder, or the bucket). */
async function storage(): Promise<void> {
  const probe = crypto.randomBytes(16);
  const key = `studio/.health-${probe.toString("hex")}`;
  const store = fileStore();
  try {
    await store.putBytes(key, probe);
    const read = await store.readBytes(key);
    if (!read || !probe.equals(Buffer.from(read))) throw new CheckFailure("storage read back other bytes than it wrote");
  } catch (error) {
    if (error instanceof CheckFailure) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
    throw new CheckFailure(`storage is not writable${code ? ` (${code})` : ""}`, { cause: error });
  } finally {
    await store.delete(key).catch(() => {});
  }
}

/** The service the studio uses (embedded or X3D_BASE_URL) gives a token and the balance. */
async function service(): Promise<void> {
  try {
    await x3d().balance();
  } catch (error) {
    if (!(error instanceof X3dError)) throw error;
    const reason =
      error.kind === "network"
        ? "the service could not be reached"
        : error.kind === "service"
          ? `the service answered code ${error.code}`
          : "the service's answer was not understood";
    throw new CheckFailure(reason, { cause: error });
  }
}

/** The database, the studio's storage and the service, each within HEALTH_TIMEOUT_MS. */
export function checkHealth(): Promise<Health<HealthPart>> {
  return runChecks({ database, storage, service }, HEALTH_TIMEOUT_MS, (part, error) =>
    log.warn({ err: error, part }, `health: ${part} failing`),
  );
}
