/**
 * "now", "5 minutes ago", "2 days ago": how long ago a task was made, in the reader's
 * language. Safe for client components.
 */

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/**
 * How long before `now` (ms) the ISO time `iso` was, in whole units of the largest one it
 * spans (floored: 50 minutes is "50 minutes ago", never "1 hour ago"). Under a minute, or
 * ahead of a skewed clock, it is "now".
 */
export function relativeTime(iso: string, now: number, locale?: string): string {
  const seconds = Math.floor((now - Date.parse(iso)) / 1000);
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return new Intl.RelativeTimeFormat(locale, { numeric: "always" }).format(-Math.floor(seconds / size), unit);
  }
  return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(0, "second");
}
