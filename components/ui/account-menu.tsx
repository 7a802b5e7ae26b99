"use client";

import { ChevronDown } from "lucide-react";
import { lazy } from "react";
import { Button } from "./button";
import { LazyMenu } from "./lazy-menu";

const load = () => import("./account-menu-content");
const AccountMenuContent = lazy(load);

interface AccountMenuProps {
  email: string;
  signOut: () => Promise<void>;
  signOutEverywhere: () => Promise<void>;
}

/** The account's menu in the header: its page, signing out here, and signing out in every browser. */
export function AccountMenu({ email, signOut, signOutEverywhere }: AccountMenuProps) {
  const trigger = (
    <Button variant="ghost" className="h-9 max-w-56 shrink gap-2 px-2" aria-label={`Account: ${email}`}>
      <span
        aria-hidden
        className="flex size-7 shrink-0 items-center justify-center rounded-full bg-accent text-sm font-semibold text-accent-foreground uppercase"
      >
        {email.slice(0, 1)}
      </span>
      <span data-testid="user-email" className="hidden truncate text-sm text-muted-foreground xl:inline">
        {email}
      </span>
      <ChevronDown className="hidden size-4 text-muted-foreground xl:inline" aria-hidden />
    </Button>
  );
  return (
    <LazyMenu
      trigger={trigger}
      preload={() => void load()}
      menu={(t) => <AccountMenuContent trigger={t} email={email} signOut={signOut} signOutEverywhere={signOutEverywhere} />}
    />
  );
}
