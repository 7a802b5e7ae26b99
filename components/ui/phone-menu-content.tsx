"use client";

import { ShieldCheck } from "lucide-react";
import Link from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "./dropdown-menu";
import { isCurrent, NAV_LINKS } from "./nav-links";

/** The places as a menu, loaded on first use (main-nav.tsx PhoneMenu). */
export default function PhoneMenuContent({ trigger, admin }: { trigger: React.ReactElement; admin: boolean }) {
  const pathname = usePathname();
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-60">
        {NAV_LINKS.map(({ href, label, icon: Icon }) => (
          <DropdownMenuItem key={href} asChild>
            <Link href={href} aria-current={isCurrent(pathname, href) ? "page" : undefined} className="aria-[current=page]:font-semibold">
              <Icon aria-hidden />
              {label}
            </Link>
          </DropdownMenuItem>
        ))}
        {admin ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem asChild>
              <Link href="/admin">
                <ShieldCheck aria-hidden />
                Admin
              </Link>
            </DropdownMenuItem>
          </>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
