"use client";

import Link from "@/components/ui/link";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";

/** The "Use this result" menu itself, loaded on first use (result-actions.tsx). */
export default function ResultActionsMenu({
  trigger,
  actions,
}: {
  trigger: React.ReactElement;
  actions: readonly { href: string; label: string }[];
}) {
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Start a new task from it</DropdownMenuLabel>
        {actions.map((a) => (
          <DropdownMenuItem key={a.href} asChild>
            <Link href={a.href}>{a.label}</Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
