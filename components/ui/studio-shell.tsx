import Link from "next/link";
import { signOut } from "@/lib/auth";
import { revokeAllSessions } from "@/lib/auth/sessions";
import { currentUser, type SessionUser } from "@/lib/session";
import { Balance } from "@/components/ui/balance";
import { Providers } from "@/components/ui/providers";

const NAV = [
  ["/new/image", "Image to 3D"],
  ["/new/texture", "Texture"],
  ["/new/split", "Split"],
  ["/new/depth", "Depth & relief"],
  ["/new/segmentation", "Segmentation"],
  ["/tasks", "My tasks"],
] as const;

/** The signed-in studio's frame: navigation (with Admin for admins), credits, the account and signing out. */
export function StudioShell({ user, admin, children }: { user: SessionUser; admin: boolean; children: React.ReactNode }) {
  // Signing out revokes this session (lib/auth.ts, events.signOut): a copied cookie stops too.
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
      <header className="border-b border-neutral-800">
        <nav className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-5 gap-y-2 px-6 py-3 text-sm">
          <Link href="/" className="font-semibold tracking-tight">
            x3d studio
          </Link>
          {NAV.map(([href, label]) => (
            <Link key={href} href={href} className="text-neutral-400 hover:text-neutral-100">
              {label}
            </Link>
          ))}
          {admin && (
            <Link href="/admin" className="text-neutral-400 hover:text-neutral-100">
              Admin
            </Link>
          )}
          <span className="ml-auto text-neutral-400">
            <Balance />
          </span>
          <span className="text-neutral-400" data-testid="user-email">
            {user.email}
          </span>
          <form action={signOutAction}>
            <button className="text-neutral-400 hover:text-neutral-100">Sign out</button>
          </form>
          <form action={signOutEverywhereAction}>
            <button className="text-neutral-400 hover:text-neutral-100" title="Sign out in every browser where this account is signed in">
              Sign out everywhere
            </button>
          </form>
        </nav>
      </header>
      <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
    </Providers>
  );
}
