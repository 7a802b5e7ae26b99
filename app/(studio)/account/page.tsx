import { KeyRound, MonitorSmartphone, Palette } from "lucide-react";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { SessionList, type SessionRow } from "@/components/account/session-list";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Container } from "@/components/ui/container";
import { ThemeSwitch } from "@/components/ui/theme-switch";
import { parseTheme, THEME_COOKIE } from "@/components/ui/theme";
import { currentSessionHandle, deviceKind, deviceName, findUserById, listSessions, MIN_PASSWORD_LENGTH } from "@/lib/accounts";
import { requireUser } from "@/app/(studio)/require-user";
import { signOutAction } from "../actions";
import { changePasswordAction, signOutSessionAction } from "./actions";

export const metadata: Metadata = { title: "Account · x3d studio" };

/** A card's heading: an icon, a title and what the card is for. */
function SectionHeader({ icon, title, id, children }: { icon: React.ReactNode; title: string; id: string; children: React.ReactNode }) {
  return (
    <CardHeader className="flex-row items-start gap-3 p-5 pb-3 sm:p-6 sm:pb-4">
      <span
        className="flex size-9 shrink-0 items-center justify-center rounded-md bg-accent text-accent-foreground [&_svg]:size-4"
        aria-hidden
      >
        {icon}
      </span>
      <div className="grid gap-1">
        <CardTitle id={id}>{title}</CardTitle>
        <CardDescription>{children}</CardDescription>
      </div>
    </CardHeader>
  );
}

/** The artist's own account: password, signed-in browsers, theme. */
export default async function AccountPage() {
  const user = await requireUser();
  const [account, sessions, handle, jar] = await Promise.all([
    findUserById(user.id),
    listSessions(user.id),
    currentSessionHandle(),
    cookies(),
  ]);
  const rows: SessionRow[] = sessions.map((s) => ({
    handle: s.handle,
    device: deviceName(s.userAgent),
    kind: deviceKind(s.userAgent),
    signedInAt: s.signedInAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    current: s.handle === handle,
  }));
  const others = rows.filter((r) => !r.current).length;
  const since = account?.createdAt.toLocaleDateString("en", { month: "long", year: "numeric", timeZone: "UTC" });

  return (
    <Container className="max-w-3xl">
      <header className="mb-8 flex items-center gap-4">
        <span
          aria-hidden
          className="flex size-14 shrink-0 items-center justify-center rounded-full bg-primary text-title font-semibold text-primary-foreground uppercase"
        >
          {(account?.name || user.email).slice(0, 1)}
        </span>
        <div className="min-w-0">
          <h1 className="text-display font-semibold tracking-tight">Account</h1>
          <p className="truncate text-body text-muted-foreground">
            {account?.name ? `${account.name} · ` : ""}
            <span data-testid="account-email">{user.email}</span>
          </p>
          {since && <p className="text-caption text-muted-foreground">With x3d studio since {since}</p>}
        </div>
      </header>

      <div className="grid gap-6">
        <Card aria-labelledby="password-heading" role="region">
          <SectionHeader icon={<KeyRound />} title="Password" id="password-heading">
            Changing it signs out every other browser where this account is signed in.
          </SectionHeader>
          <CardContent className="p-5 pt-2 sm:p-6 sm:pt-2">
            {account?.passwordHash ? (
              <ChangePasswordForm email={user.email} minLength={MIN_PASSWORD_LENGTH} action={changePasswordAction} />
            ) : (
              <p className="text-body text-muted-foreground">This account signs in with GitHub: it has no password here.</p>
            )}
          </CardContent>
        </Card>

        <Card aria-labelledby="sessions-heading" role="region">
          <SectionHeader icon={<MonitorSmartphone />} title="Sessions" id="sessions-heading">
            {others === 0
              ? "This account is signed in only here."
              : `Signed in here and in ${others} other ${others === 1 ? "browser" : "browsers"}. Sign out any you do not recognise.`}
          </SectionHeader>
          <CardContent className="p-5 pt-0 sm:p-6 sm:pt-0">
            <SessionList sessions={rows} signOutSession={signOutSessionAction} signOutHere={signOutAction} />
          </CardContent>
        </Card>

        <Card aria-labelledby="theme-heading" role="region">
          <SectionHeader icon={<Palette />} title="Theme" id="theme-heading">
            System follows your device&apos;s light or dark setting. Kept in this browser.
          </SectionHeader>
          <CardContent className="p-5 pt-2 sm:p-6 sm:pt-2">
            <ThemeSwitch initial={parseTheme(jar.get(THEME_COOKIE)?.value)} className="max-w-sm" />
          </CardContent>
        </Card>
      </div>
    </Container>
  );
}
