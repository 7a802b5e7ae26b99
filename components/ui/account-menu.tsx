"use client";

import { ChevronDown, LogOut, MonitorX, UserRound } from "lucide-react";
import Link from "next/link";
import { startTransition } from "react";
import { Button } from "./button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "./dropdown-menu";

interface AccountMenuProps {
  email: string;
  signOut: () => Promise<void>;
  signOutEverywhere: () => Promise<void>;
}

/** The account's menu: its page, signing out here, and signing out in every browser. */
export function AccountMenu({ email, signOut, signOutEverywhere }: AccountMenuProps) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
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
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-64">
        <DropdownMenuLabel className="truncate">{email}</DropdownMenuLabel>
        <DropdownMenuItem asChild>
          <Link href="/account">
            <UserRound aria-hidden />
            Account and sessions
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        {/* Called directly, not through a <form> in the menu: the menu closes (unmounting the form) before a submit would happen. */}
        <DropdownMenuItem onSelect={() => startTransition(() => signOut())}>
          <LogOut aria-hidden />
          Sign out
        </DropdownMenuItem>
        <DropdownMenuItem
          onSelect={() => startTransition(() => signOutEverywhere())}
          title="Sign out in every browser where this account is signed in"
        >
          <MonitorX aria-hidden />
          Sign out everywhere
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
