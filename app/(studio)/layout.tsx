import { isAdmin } from "@/lib/auth/roles";
import { requireUser } from "@/lib/session";
import { StudioShell } from "@/components/ui/studio-shell";

export default async function StudioLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return (
    <StudioShell user={user} admin={await isAdmin(user)}>
      {children}
    </StudioShell>
  );
}
