/** What a file's conditional requests are checked against. */
export interface Validators {
  /** A strong entity tag, quoted: `"…"`. */
  etag: string;
  /** The modification time in ms, whole seconds (what `Last-Modified` can say). */
  lastModified: number;
}

/** The entity tags in an `If-Match`/`If-None-Match` list; commas may sit inside the quotes. */
function entityTags(value: string): { weak: boolean; tag: string }[] {
  return [...value.matchAll(/(W\/)?("[^"]*")/g)].map(([, weak, tag = ""]) => ({ weak: !!weak, tag }));
}

/** Whether an `If-None-Match` value names `etag` (or is `*`): weak comparison, so `W/` tags match too (RFC 9110 §13.1.2). */
export function noneMatchHolds(value: string, etag: string): boolean {
  return value.trim() === "*" || entityTags(value).some((t) => t.tag === etag);
}

/** An HTTP-date (RFC 9110 §5.6.7) in ms, NaN when not one. asctime dates carry no zone: GMT. */
export function parseHttpDate(value: string | null): number {
  if (!value) return NaN;
  const text = value.trim();
  return Date.parse(/GMT$/i.test(text) ? text : `${text} GMT`);
}

/**
 * The preconditions of a GET or HEAD, in RFC 9110 §13.2.2's order: 412 when `If-Match` (strong
 * comparison) or, without it, `If-Unmodified-Since` fails; 304 when `If-None-Match` (weak
 * comparison) matches or, without it, `If-Modified-Since` is not older than the file; else
 * "proceed". Unparseable dates are ignored, as the RFC requires.
 */
export function checkPreconditions(headers: Headers, file: Validators): "proceed" | 304 | 412 {
  const ifMatch = headers.get("if-match");
  if (ifMatch !== null) {
    const ok = ifMatch.trim() === "*" || entityTags(ifMatch).some((t) => !t.weak && t.tag === file.etag);
    if (!ok) return 412;
  } else if (file.lastModified > parseHttpDate(headers.get("if-unmodified-since"))) {
    return 412;
  }
  const ifNoneMatch = headers.get("if-none-match");
  if (ifNoneMatch !== null) return noneMatchHolds(ifNoneMatch, file.etag) ? 304 : "proceed";
  return file.lastModified <= parseHttpDate(headers.get("if-modified-since")) ? 304 : "proceed";
}

/**
 * Whether a Range may be honoured under `If-Range` (RFC 9110 §13.1.5): no header, the same
 * strong entity tag, or exactly the Last-Modified date, trusted only when the file is at least
 * a second older than now (§8.8.2.2: a date is a strong validator only then). False means:
 * send the whole file.
 */
export function ifRangeHolds(value: string | null, file: Validators, mtimeMs: number, now = Date.now()): boolean {
  if (value === null) return true;
  const text = value.trim();
  if (text.startsWith('"') || text.startsWith("W/")) return text === file.etag;
  return parseHttpDate(text) === file.lastModified && now - mtimeMs >= 1000;
}
