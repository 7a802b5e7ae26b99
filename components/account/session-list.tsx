import { Laptop, Smartphone, Tablet } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/tasks/local-time";
import { TimeAgo } from "./last-seen";
import { SignOutHereButton, SignOutSessionButton } from "./session-buttons";

export interface SessionRow {
  handle: string;
  /** "Chrome on Linux" (lib/accounts/device.ts). */
  device: string;
  kind: "phone" | "tablet" | "computer";
  signedInAt: string;
  lastSeenAt: string;
  /** This browser's own session. */
  current: boolean;
}

interface Props {
  sessions: SessionRow[];
  signOutSession: React.ComponentProps<typeof SignOutSessionButton>["action"];
  signOutHere: () => Promise<void>;
}

const ICONS = { phone: Smartphone, tablet: Tablet, computer: Laptop } as const;

/** The account's signed-in browsers, this one first, each with its way to sign out. */
export function SessionList({ sessions, signOutSession, signOutHere }: Props) {
  const ordered = [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
  return (
    <ul className="divide-y divide-border" data-testid="session-list">
      {ordered.map((session) => {
        const Icon = ICONS[session.kind];
        return (
          <li key={session.handle} data-testid="session" className="flex items-start gap-4 py-4 first:pt-1 last:pb-1">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground" aria-hidden>
              <Icon className="size-5" />
            </span>
            {/* On a phone the button goes under the words, in line with them. */}
            <div className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-x-4 gap-y-2">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <span data-testid="session-device">{session.device}</span>
                  {session.current && (
                    <Badge tone="success" data-testid="this-browser">
                      This browser
                    </Badge>
                  )}
                </p>
                <p className="mt-0.5 text-caption text-muted-foreground">
                  Signed in <LocalTime iso={session.signedInAt} />
                  <span aria-hidden> · </span>
                  <span className="whitespace-nowrap">
                    {session.current ? (
                      "active now"
                    ) : (
                      <>
                        last seen <TimeAgo iso={session.lastSeenAt} />
                      </>
                    )}
                  </span>
                </p>
              </div>
              {session.current ? (
                <SignOutHereButton action={signOutHere} />
              ) : (
                <SignOutSessionButton handle={session.handle} device={session.device} action={signOutSession} />
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
