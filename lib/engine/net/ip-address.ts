// Which IP addresses a user-given URL may reach: public unicast only (SSRF protection).

import net from "node:net";

function parseIPv4(ip: string): number | null {
  const parts = ip.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return null;
    value = value * 256 + Number(p);
  }
  return value;
}

/** Special-purpose IPv4 ranges (RFC 6890 and friends): none may be fetched. */
const V4_BLOCKED = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
].map((cidr) => {
  const [base = "", bits = "0"] = cidr.split("/");
  const mask = Number(bits) === 0 ? 0 : (0xffffffff << (32 - Number(bits))) >>> 0;
  const parsed = parseIPv4(base);
  if (parsed === null) throw new Error(`bad CIDR in the blocklist: ${cidr}`);
  return { base: parsed, mask };
});

function isPublicV4(value: number): boolean {
  return !V4_BLOCKED.some(({ base, mask }) => (value & mask) >>> 0 === base);
}

/** Eight 16-bit groups, or null. Accepts a zone ("%eth0") and a dotted IPv4 tail. */
function parseIPv6(input: string): number[] | null {
  let s = input.replace(/%.*$/, "");
  if (!net.isIPv6(s)) return null;
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseIPv4(tail);
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = s.split("::");
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves[1] ? halves[1].split(":") : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length > 2 || (halves.length === 1 ? fill !== 0 : fill < 1)) return null;
  return [...head, ...Array<string>(fill).fill("0"), ...rest].map((h) => parseInt(h, 16));
}

/** The IPv4 address embedded in an IPv6 address that leads to it (mapped, NAT64, 6to4). */
function embeddedV4(g: number[]): number | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const v4 = (hi: number, lo: number) => hi * 0x10000 + lo;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return v4(g6, g7); // ::ffff:0:0/96
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7); // 64:ff9b::/96
  if (g0 === 0x2002) return v4(g1, g2); // 6to4 2002::/16
  return null;
}

/**
 * True for a globally routable unicast address. False for private, loopback, link-local,
 * CGNAT, unique-local, unspecified, multicast, documentation and other reserved ranges,
 * for IPv6 forms of such IPv4 addresses, and for anything that is not an IP address.
 */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const v4 = parseIPv4(bare);
  if (v4 !== null) return isPublicV4(v4);
  const g = parseIPv6(bare);
  if (!g) return false;
  const inner = embeddedV4(g);
  if (inner !== null) return isPublicV4(inner);
  const [g0 = 0, g1 = 0] = g;
  if ((g0 & 0xe000) !== 0x2000) return false; // outside 2000::/3 global unicast
  if (g0 === 0x2001 && g1 < 0x200) return false; // 2001::/23 IETF (Teredo, ORCHID, ...)
  if (g0 === 0x2001 && g1 === 0xdb8) return false; // documentation
  if (g0 === 0x3fff && g1 < 0x1000) return false; // documentation 3fff::/20
  return true;
}

export function isLoopbackAddress(ip: string): boolean {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return v4 >>> 24 === 127;
  const g = parseIPv6(ip);
  if (!g) return false;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return (g[6] ?? 0) >>> 8 === 127;
  return g.slice(0, 7).every((x) => x === 0) && g[7] === 1;
}

// ---------------------------------------------------------------- the exchange
