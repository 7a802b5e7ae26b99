import { currentUser } from "@/lib/session";
import { x3d } from "@/lib/x3d/service";
import { X3dError } from "@/lib/x3d/client";

/** The service balance, for the studio's header and forms. */
export async function GET() {
  if (!(await currentUser())) return Response.json({ error: "Sign in first." }, { status: 401 });
  try {
    const { totalBalance } = await x3d().balance();
    return Response.json({ balance: totalBalance });
  } catch (error) {
    const message = error instanceof X3dError ? error.userMessage : "The service could not be reached.";
    return Response.json({ error: message }, { status: 502 });
  }
}
