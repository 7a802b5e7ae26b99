import { currentUser, isAdmin } from "@/lib/accounts";
import { creditsOf } from "@/lib/credits/ledger";
import { serviceBalance } from "@/lib/admin/service-balance";
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
  const service = await serviceBalance();
  return Response.json(
    ("balance" in service
      ? { role: "admin", credits, service: service.balance }
      : { role: "admin", credits, serviceError: service.error }) satisfies BalanceView,
  );
}
