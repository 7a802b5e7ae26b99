import { isAdmin } from "@/lib/accounts/roles";
import { requireUser } from "@/app/(studio)/require-user";
import { StudioShell } from "@/components/ui/studio-shell";

export default async function StudioLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return (
    <StudioShell user={user} admin={await isAdmin(user)}>
      {children}
    </StudioShell>
  );
}
