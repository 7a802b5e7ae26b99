import Link from "next/link";
import { Box } from "lucide-react";
import { signOut } from "@/lib/accounts/authjs";
import { revokeAllSessions } from "@/lib/accounts/sessions";
import { currentUser, type SessionUser } from "@/lib/accounts/current-user";
import { Balance } from "@/components/ui/balance";
import { AccountMenu } from "./account-menu";
import { Providers } from "./providers";
import { MainNav, PhoneMenu } from "./main-nav";

/**
 * The signed-in studio's frame: one row, at most 56 px high at every width. Wide screens show the
 * places as links; under 1024 px they fold into a menu. The account menu holds the account page
 * and signing out.
 */
export function StudioShell({ user, admin, children }: { user: SessionUser; admin: boolean; children: React.ReactNode }) {
  // Signing out revokes this session (lib/accounts/authjs.ts, events.signOut): a copied cookie stops too.
  async function signOutAction() {
    "use server";
    await signOut({ redirectTo: "/sign-in" });
  }
  // Ends the account's sessions in every browser (a lost laptop, a shared computer), then this one's cookie.
  async function signOutEverywhereAction() {
    "use server";
    const me = await currentUser();
    if (me) await revokeAllSessions(me.id);
    await signOut({ redirectTo: "/sign-in" });
  }
  return (
    <Providers>
      <header className="sticky top-0 z-40 h-header border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
        <div className="flex h-full items-center gap-2 px-3 sm:px-4">
          <PhoneMenu admin={admin} />
          <Link href="/" className="mr-2 flex shrink-0 items-center gap-2 font-semibold tracking-tight" aria-label="x3d studio: gallery">
            <span className="flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
              <Box className="size-4" aria-hidden />
            </span>
            <span className="hidden sm:inline">x3d studio</span>
          </Link>
          <MainNav admin={admin} />
          <span className="ml-auto shrink-0 text-sm whitespace-nowrap text-muted-foreground">
            <Balance />
          </span>
          <AccountMenu email={user.email} signOut={signOutAction} signOutEverywhere={signOutEverywhereAction} />
        </div>
      </header>
      <main id="main">{children}</main>
    </Providers>
  );
}
