"use client";

import { relativeTime } from "@/lib/tasks/model/relative-time";
import { useClock } from "./use-clock";

/**
 * "5 minutes ago", kept current, with the full local date as its tooltip; the UTC date until
 * hydrated (the server does not know the reader's clock or language).
 */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const now = useClock();
  const full = now === null ? undefined : new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return (
    <time dateTime={iso} title={full} className={className}>
      {now === null ? iso.slice(0, 10) : relativeTime(iso, now)}
    </time>
  );
}
