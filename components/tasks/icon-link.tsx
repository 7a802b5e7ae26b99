"use client";

import Link from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";

/** A link showing only an icon, named by `label` and explained by a tooltip: IconButton's twin for places to go. */
export function IconLink({
  href,
  label,
  hint,
  icon,
  className,
}: {
  href: string;
  label: string;
  hint?: string;
  icon: React.ReactNode;
  className?: string;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button asChild variant="ghost" size="icon" className={className}>
          <Link href={href} aria-label={label}>
            {icon}
          </Link>
        </Button>
      </TooltipTrigger>
      <TooltipContent>{hint ?? label}</TooltipContent>
    </Tooltip>
  );
}
