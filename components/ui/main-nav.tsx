"use client";

import { Menu, ShieldCheck } from "lucide-react";
import Link from "@/components/ui/link";
import { lazy } from "react";
import { usePathname } from "next/navigation";
import { cn } from "./cn";
import { Button } from "./button";
import { LazyMenu } from "./lazy-menu";
import { isCurrent, NAV_LINKS } from "./nav-links";

/** The places as one row of links, from 1024 px up. */
export function MainNav({ admin }: { admin: boolean }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Studio" className="hidden min-w-0 items-center gap-0.5 overflow-hidden lg:flex">
      {NAV_LINKS.map(({ href, label, icon: Icon }) => (
        <Link
          key={href}
          href={href}
          aria-current={isCurrent(pathname, href) ? "page" : undefined}
          className={cn(
            "flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm whitespace-nowrap text-muted-foreground transition-colors",
            "hover:bg-accent hover:text-accent-foreground aria-[current=page]:bg-accent aria-[current=page]:text-foreground",
          )}
        >
          <Icon className="size-4" aria-hidden />
          {label}
        </Link>
      ))}
      {admin ? (
        <Link
          href="/admin"
          aria-current={isCurrent(pathname, "/admin") ? "page" : undefined}
          className="flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm text-muted-foreground hover:bg-accent hover:text-accent-foreground aria-[current=page]:bg-accent aria-[current=page]:text-foreground"
        >
          <ShieldCheck className="size-4" aria-hidden />
          Admin
        </Link>
      ) : null}
    </nav>
  );
}

const load = () => import("./phone-menu-content");
const PhoneMenuContent = lazy(load);

/** Under 1024 px: the same places behind one menu button, so the header stays one row. */
export function PhoneMenu({ admin }: { admin: boolean }) {
  const trigger = (
    <Button variant="ghost" size="icon" aria-label="Menu" className="lg:hidden">
      <Menu aria-hidden />
    </Button>
  );
  return <LazyMenu trigger={trigger} preload={() => void load()} menu={(t) => <PhoneMenuContent trigger={t} admin={admin} />} />;
}
