import Link from "@/components/ui/link";
import { Box } from "lucide-react";
import type { SessionUser } from "@/lib/accounts";
import { Balance } from "@/components/ui/balance";
import { AccountMenu } from "./account-menu";
import { Providers } from "./providers";
import { MainNav, PhoneMenu } from "./main-nav";

interface StudioShellProps {
  user: SessionUser;
  admin: boolean;
  /** Signs this browser out. */
  signOut: () => Promise<void>;
  /** Signs the account out in every browser. */
  signOutEverywhere: () => Promise<void>;
  children: React.ReactNode;
}

/**
 * The signed-in studio's frame: one row, at most 56 px high at every width. Wide screens show the
 * places as links; under 1024 px they fold into a menu. The account menu holds the account page
 * and signing out, whose server actions the layout hands in (app/(studio)/actions.ts).
 */
export function StudioShell({ user, admin, signOut, signOutEverywhere, children }: StudioShellProps) {
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
          <AccountMenu email={user.email} signOut={signOut} signOutEverywhere={signOutEverywhere} />
        </div>
      </header>
      <main id="main">{children}</main>
    </Providers>
  );
}
