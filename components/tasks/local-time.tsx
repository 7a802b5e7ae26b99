"use client";

import { useIsBrowser } from "./use-clock";

/** A date in the reader's locale and time zone (UTC ISO text until hydrated). */
export function LocalTime({ iso, dateOnly = false }: { iso: string; dateOnly?: boolean }) {
  const browser = useIsBrowser();
  const date = new Date(iso);
  const text = browser
    ? dateOnly
      ? date.toLocaleDateString()
      : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
    : iso.slice(0, dateOnly ? 10 : 16).replace("T", " ");
  return <time dateTime={iso}>{text}</time>;
}

/** "42 s", "3 min 5 s", "1 h 2 min". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
