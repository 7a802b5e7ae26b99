import "server-only";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { studioTasks, type StudioTask } from "@/lib/db/schema";
import { hashSecret } from "./record";

/** Longer path segments are not secrets we issued; refusing them early bounds the hashing. */
const MAX_SECRET_LENGTH = 256;

/** Whether `secret` hashes to `storedHash` (hex sha256), compared in constant time. */
export function secretMatches(secret: string, storedHash: string | null): boolean {
  if (!storedHash || !secret || secret.length > MAX_SECRET_LENGTH || !/^[0-9a-f]{64}$/.test(storedHash)) return false;
  return crypto.timingSafeEqual(Buffer.from(hashSecret(secret), "hex"), Buffer.from(storedHash, "hex"));
}

/** The task a callback URL names, when its secret is the one issued for it; else null. */
export async function taskForCallback(id: string, secret: string): Promise<StudioTask | null> {
  const [task] = await (await db()).select().from(studioTasks).where(eq(studioTasks.id, id)).limit(1);
  return task && secretMatches(secret, task.callbackSecretHash) ? task : null;
}
