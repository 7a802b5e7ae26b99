import "server-only";
import { redirect } from "next/navigation";
import { currentUser, type SessionUser } from "@/lib/accounts";

/** The signed-in user; pages without one go to sign-in (here, not in lib: lib never redirects). */
export async function requireUser(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  return user;
}
