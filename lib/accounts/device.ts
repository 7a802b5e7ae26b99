/**
 * A short readable name for the browser behind a User-Agent ("Chrome on Linux"), for the list
 * of an account's sessions. Only the few families an artist would recognise; the order of the
 * checks matters, since most browsers also claim to be Safari, Chrome or Mozilla.
 */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bCriOS\/|\b(Headless)?Chrome\/|\bChromium\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b|\biPod\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMacintosh\b|\bMac OS X\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

/** The longest User-Agent kept with a session; real ones are far shorter. */
export const MAX_USER_AGENT_LENGTH = 512;

const first = (table: readonly (readonly [RegExp, string])[], text: string) => table.find(([pattern]) => pattern.test(text))?.[1];

/** "Chrome on Linux", "Safari on iPhone", "Firefox"; "Unknown browser" when nothing is recognised or none was kept. */
export function deviceName(userAgent: string | null | undefined): string {
  const text = userAgent ?? "";
  const browser = first(BROWSERS, text);
  const system = first(SYSTEMS, text);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : "Unknown browser");
}

/** What kind of device a User-Agent names, for its icon. */
export function deviceKind(userAgent: string | null | undefined): "phone" | "tablet" | "computer" {
  const system = first(SYSTEMS, userAgent ?? "");
  if (system === "iPad") return "tablet";
  if (system === "iPhone" || (system === "Android" && /\bMobile\b/.test(userAgent ?? ""))) return "phone";
  if (system === "Android") return "tablet";
  return "computer";
}
