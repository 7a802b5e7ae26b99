import "server-only";
import { eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { engineClients } from "@/lib/db/schema";
import { answer, ok } from "../envelope";
import { authorized, BEARER } from "./common";

/** GET balance */
export function handleBalance(request: Request): Promise<Response> {
  return answer(() =>
    authorized(request, BEARER, async (clientId) => {
      const [row] = await (await db()).select({ balance: engineClients.balance }).from(engineClients).where(eq(engineClients.id, clientId));
      return ok({ totalBalance: row?.balance ?? 0 });
    }),
  );
}
