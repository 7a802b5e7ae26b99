"use client";

import { useClock } from "@/components/tasks/use-clock";

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "just now", "5 minutes ago", "3 hours ago", "yesterday", "12 days ago". */
function sinceText(then: number, now: number): string {
  const seconds = Math.max(0, (now - then) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), "minute");
  if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), "hour");
  return relative.format(-Math.floor(seconds / 86_400), "day");
}

/** How long ago `iso` was, kept current; the exact time in its tooltip. On the server (no clock yet): the UTC time. */
export function TimeAgo({ iso }: { iso: string }) {
  const now = useClock();
  const then = new Date(iso);
  return (
    <time dateTime={iso} title={now === null ? undefined : then.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}>
      {now === null ? iso.slice(0, 16).replace("T", " ") : sinceText(then.getTime(), now)}
    </time>
  );
}
