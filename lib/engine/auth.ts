import "server-only";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { engineClients } from "@/lib/db/schema";
import { engineSecret } from "./settings";

const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");
const hmac = (key: string, s: string) => crypto.createHmac("sha256", key).update(s).digest("base64url");

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** Reads `Authorization: Basic base64(id:secret)`; null when absent or malformed. */
export function parseBasic(header: string | null): { id: string; secret: string } | null {
  const m = header?.match(/^Basic\s+(\S+)\s*$/i);
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 1) return null;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** Binds a token to the secret it was issued under: a new secret for the same id voids it. */
const secretMark = (secretHash: string) => sha256(`token:${secretHash}`).slice(0, 16);

export function hashSecret(secret: string): string {
  return sha256(secret);
}

/**
 * A signed access token valid for 24 hours, naming the client and the secret it was issued
 * under; null when the pair is wrong or is one the server no longer uses (inactive).
 */
export async function issueToken(id: string, secret: string): Promise<{ accessToken: string; nonce: string } | null> {
  // No client id holds a NUL, and PostgreSQL text cannot: the lookup would fail, not miss.
  if (id.includes("\0")) return null;
  const [row] = await (await db()).select().from(engineClients).where(eq(engineClients.id, id));
  if (!row?.active || !safeEqual(row.secretHash, sha256(secret))) return null;
  const nonce = crypto.randomBytes(16).toString("hex");
  const payload = Buffer.from(JSON.stringify({ c: id, e: Date.now() + TOKEN_TTL_MS, n: nonce, s: secretMark(row.secretHash) })).toString(
    "base64url",
  );
  return { accessToken: `x3d.${payload}.${hmac(await engineSecret(), payload)}`, nonce };
}

/**
 * The client id an `Authorization` header proves, or null. Accepts the `Bearer` scheme,
 * and `Token` where the spec documents it (split and segmentation queries). The signature
 * and expiry are not enough: the client must still exist, be the one the server is
 * configured with (active), and have the secret the token was issued under. One primary-key
 * read per request, so a rotation takes effect at once.
 */
export async function authenticate(header: string | null, schemes: readonly string[] = ["Bearer"]): Promise<string | null> {
  const [, scheme, token] = header?.match(/^(\w+)\s+(\S+)\s*$/) ?? [];
  if (!scheme || !token || !schemes.some((s) => s.toLowerCase() === scheme.toLowerCase())) return null;
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== "x3d") return null;
  const [, payload, sig] = parts as [string, string, string];
  if (!safeEqual(sig, hmac(await engineSecret(), payload))) return null;
  let claims: { c?: unknown; e?: unknown; s?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as typeof claims;
  } catch {
    return null;
  }
  if (typeof claims.c !== "string" || typeof claims.e !== "number" || typeof claims.s !== "string" || claims.e < Date.now()) return null;
  const [row] = await (
    await db()
  )
    .select({ active: engineClients.active, secretHash: engineClients.secretHash })
    .from(engineClients)
    .where(eq(engineClients.id, claims.c));
  if (!row?.active || !safeEqual(claims.s, secretMark(row.secretHash))) return null;
  return claims.c;
}

/** Signs a file link: `auth_key` binds the path to its expiry `t` (seconds since the epoch). */
export async function signPath(pathname: string, expires: number): Promise<string> {
  return hmac(await engineSecret(), `${pathname}:${expires}`);
}

export async function checkSignedPath(pathname: string, expires: number, key: string): Promise<boolean> {
  return expires * 1000 >= Date.now() && safeEqual(key, await signPath(pathname, expires));
}
