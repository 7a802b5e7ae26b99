import type { ReactNode } from "react";

/** The select trigger's look, shared by Select and LazySelect's stand-in so the swap does not show. */
export const SELECT_TRIGGER_CLASS = [
  "flex h-9 w-full items-center justify-between gap-2 rounded-md border border-input bg-background px-3 text-sm whitespace-nowrap shadow-xs",
  "outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50 data-[placeholder]:text-muted-foreground",
  "aria-invalid:border-destructive [&>span]:truncate",
].join(" ");

/** What LazySelect takes (its stand-in trigger and the Radix select it swaps to). */
interface LazySelectOption {
  value: string;
  label: ReactNode;
}

export interface LazySelectProps {
  value: string;
  onValueChange(value: string): void;
  options: readonly LazySelectOption[];
  /** The trigger's own attributes: its accessible name or id (with a <label>), its description, aria-invalid. */
  id?: string;
  "aria-label"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  className?: string;
}
