"use client";

import { ChevronRight } from "lucide-react";
import { useState } from "react";

interface MoreOptionsProps {
  /** What the folded fields are set to, in a few words, so a closed fold hides nothing surprising. */
  summary?: string | undefined;
  /** A folded field has an error: the fold opens to show it. */
  hasError?: boolean;
  children: React.ReactNode;
}

/**
 * Options most artists leave as they are, folded under "More options". A native <details>: its
 * fields stay in the form while folded, so their hidden inputs are submitted either way.
 */
export function MoreOptions({ summary, hasError = false, children }: MoreOptionsProps) {
  const [open, setOpen] = useState(false);
  // Opened once for each error that arrives (adjusting state while rendering, as React advises).
  const [shown, setShown] = useState(false);
  if (hasError !== shown) {
    setShown(hasError);
    if (hasError) setOpen(true);
  }
  return (
    <details
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      className="group rounded-md border border-border bg-card/40"
      data-testid="more-options"
    >
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-md px-3 py-2.5 text-sm font-medium outline-none select-none hover:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
        <ChevronRight className="size-4 text-muted-foreground transition-transform group-open:rotate-90" aria-hidden />
        More options
        {summary ? (
          <span className="ml-auto truncate text-caption font-normal text-muted-foreground group-open:hidden">{summary}</span>
        ) : null}
      </summary>
      <div className="space-y-4 border-t border-border px-3 pt-3 pb-4">{children}</div>
    </details>
  );
}
