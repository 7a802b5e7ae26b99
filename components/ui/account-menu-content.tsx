"use client";

import { LogOut, MonitorX, UserRound } from "lucide-react";
import Link from "@/components/ui/link";
import { startTransition } from "react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "./dropdown-menu";

interface Props {
  trigger: React.ReactElement;
  email: string;
  signOut: () => Promise<void>;
  signOutEverywhere: () => Promise<void>;
}

/** The account menu itself, loaded on first use (account-menu.tsx). */
export default function AccountMenuContent({ trigger, email, signOut, signOutEverywhere }: Props) {
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
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
