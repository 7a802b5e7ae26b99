import { isAdmin } from "@/lib/auth/roles";
import { creditsOf } from "@/lib/credits/ledger";
import { currentUser } from "@/lib/session";
import { recordServiceError } from "@/lib/tasks/service-errors";
import { x3d } from "@/lib/x3d/service";
import { X3dError } from "@/lib/x3d/client";
import type { BalanceView } from "@/lib/credits/balance-view";

/**
 * What the signed-in user may spend, for the header and the forms: an artist's own credits;
 * an admin's too, and the service account's balance, which only admins see.
 */
export async function GET() {
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const credits = await creditsOf(user.id);
  if (!(await isAdmin(user))) return Response.json({ role: "artist", credits } satisfies BalanceView);
  try {
    const { totalBalance } = await x3d().balance();
    return Response.json({ role: "admin", credits, service: totalBalance } satisfies BalanceView);
  } catch (error) {
    await recordServiceError("balance", error);
    const serviceError = error instanceof X3dError ? error.userMessage : "The service could not be reached.";
    return Response.json({ role: "admin", credits, serviceError } satisfies BalanceView);
  }
}
