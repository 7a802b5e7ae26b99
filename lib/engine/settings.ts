import "server-only";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { engineSettings } from "@/lib/db/schema";

let secret: Promise<string> | undefined;

/** The key that signs tokens and file links, made once and kept in the database so every instance shares it. */
export function engineSecret(): Promise<string> {
  secret ??= (async () => {
    const database = await db();
    await database
      .insert(engineSettings)
      .values({ key: "signing_secret", value: crypto.randomBytes(32).toString("base64url") })
      .onConflictDoNothing();
    const [row] = await database.select().from(engineSettings).where(eq(engineSettings.key, "signing_secret"));
    if (!row) throw new Error("signing secret missing");
    return row.value;
  })().catch((e: unknown) => {
    secret = undefined;
    throw e;
  });
  return secret;
}
