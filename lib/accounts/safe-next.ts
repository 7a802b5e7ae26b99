/**
 * Where to go after signing in or up: `next` when it is a path on this site, else "/".
 *
 * Browsers and URL parsers read more than `//host` as another origin: `/\host` (backslashes
 * count as slashes), `/\t/host` (tabs and newlines are dropped from URLs), and any scheme.
 * Encoded forms (`/%2F%2Fhost`, `%5C`) are refused too: some redirect chains decode once
 * more. So the rule is a narrow allow-list, not a list of known tricks: a single leading
 * slash, then only printable ASCII without backslashes, and nothing that decodes into a
 * slash, backslash or control character. What passes is also checked to resolve on a
 * placeholder origin without leaving it.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== "string" || next.length > 2000) return "/";
  if (!next.startsWith("/") || next.startsWith("//")) return "/";
  // Printable ASCII only: no controls, no spaces, no non-ASCII look-alikes; and no backslash.
  if (!/^[\x21-\x7e]*$/.test(next) || next.includes("\\")) return "/";
  // Encoded slashes, backslashes, controls, or a `%` that is itself encoded (%25): a second
  // decode somewhere on the way could turn them into `//host`.
  if (/%(2f|5c|25|[01][0-9a-f]|7f)/i.test(next)) return "/";
  const base = "http://same.invalid";
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return "/";
  }
  if (url.origin !== base) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Auth.js's redirect callback: where it may send the browser (its redirectTo, its endpoints'
 * callbackUrl). An absolute URL keeps its path only on `baseUrl`'s origin (another site, port or
 * scheme goes to "/"); the path, absolute or given, must then pass safeNext.
 */
export function sameSiteRedirect(url: string, baseUrl: string): string {
  let path = url;
  try {
    const parsed = new URL(url);
    path = parsed.origin === new URL(baseUrl).origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : "/";
  } catch {
    // not absolute: a path, checked below
  }
  return `${baseUrl}${safeNext(path)}`;
}
