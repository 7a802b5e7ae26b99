import "server-only";
import { recordServiceError } from "@/lib/tasks/lifecycle/service-errors";
import { X3dError } from "@/lib/x3d/client";
import { x3d } from "@/lib/x3d/service";

/** The service account's balance (admins only), or why it could not be read; a failure is noted for the admin page. */
export async function serviceBalance(): Promise<{ balance: number } | { error: string }> {
  try {
    return { balance: (await x3d().balance()).totalBalance };
  } catch (error) {
    await recordServiceError("balance", error);
    return { error: error instanceof X3dError ? error.userMessage : "The service could not be reached." };
  }
}
