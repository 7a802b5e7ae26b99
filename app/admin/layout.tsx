import { notFound } from "next/navigation";
import { currentAdmin } from "@/lib/accounts";
import { Container } from "@/components/ui/container";
import { StudioShell } from "@/components/ui/studio-shell";
import { signOutAction, signOutEverywhereAction } from "@/app/(studio)/actions";

/** Admins only: anyone else, signed in or not, gets the plain 404 page (the page's existence is not told). */
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const admin = await currentAdmin();
  if (!admin) notFound();
  return (
    <StudioShell user={admin} admin signOut={signOutAction} signOutEverywhere={signOutEverywhereAction}>
      <Container>{children}</Container>
    </StudioShell>
  );
}
