import crypto from "node:crypto";

const digest = (text: string) => crypto.createHash("sha256").update(text, "utf8").digest();

/**
 * Whether an Authorization header is `Bearer <expected>`. Compared in constant time (over
 * digests, so the expected token's length does not show either).
 */
export function bearerMatches(header: string | null | undefined, expected: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  const given = match?.[1] ?? "";
  return crypto.timingSafeEqual(digest(given), digest(expected)) && match !== null;
}
