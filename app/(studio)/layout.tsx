import { isAdmin } from "@/lib/accounts";
import { requireUser } from "@/app/(studio)/require-user";
import { StudioShell } from "@/components/ui/studio-shell";
import { signOutAction, signOutEverywhereAction } from "./actions";

export default async function StudioLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return (
    <StudioShell user={user} admin={await isAdmin(user)} signOut={signOutAction} signOutEverywhere={signOutEverywhereAction}>
      {children}
    </StudioShell>
  );
}
