import net from "node:net";

/**
 * The client's address for sign-in and sign-up throttling.
 *
 * `next start` gives route handlers and server actions no socket, only headers, and its own
 * `x-forwarded-for` is set from the socket only when the client sent none (base-server.js:
 * `req.headers['x-forwarded-for'] ??= socket.remoteAddress`): a client picks its own. So the
 * server stamps every request with this header as it arrives (stamp-client-address.ts),
 * overwriting whatever the client sent under that name.
 */
export const CLIENT_ADDRESS_HEADER = "x-x3d-client-address";

/** A request whose stamp is missing (one that arrived before the hook was installed) shares this one. */
export const UNKNOWN_ADDRESS = "unknown";

/**
 * The address a request came from: the socket's peer; with `trustedProxies` = N > 0, the
 * address the outermost of N proxies saw, which is X-Forwarded-For's N-th entry from the
 * right (each proxy appends the address it was called from; everything left of that is the
 * client's to write). Fewer entries than N: the leftmost.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxies: number,
): string {
  let address = socketAddress;
  if (trustedProxies > 0 && forwardedFor) {
    const hops = [forwardedFor]
      .flat()
      .join(",")
      .split(",")
      .map((hop) => hop.trim())
      .filter(Boolean);
    if (hops.length > 0) address = hops[Math.max(0, hops.length - trustedProxies)];
  }
  return normalizeAddress(address);
}

/** An IP address in one spelling: no port, brackets or zone, IPv4-mapped IPv6 as IPv4; anything else is UNKNOWN_ADDRESS. */
export function normalizeAddress(raw: string | undefined): string {
  let address = (raw ?? "").trim().toLowerCase();
  const [, bracketed] = /^\[([^\]]+)\](?::\d+)?$/.exec(address) ?? [];
  if (bracketed !== undefined) address = bracketed;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  address = address.replace(/%.*$/, "");
  if (address.startsWith("::ffff:") && net.isIPv4(address.slice(7))) address = address.slice(7);
  return net.isIP(address) ? address : UNKNOWN_ADDRESS;
}

/**
 * What one client is counted as: an IPv4 address, or an IPv6 address's /64 network (one
 * subscriber is usually given a whole /64, so counting single addresses would not slow anyone).
 */
export function throttleNetwork(address: string): string {
  if (!net.isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros. */
function expandIPv6(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const part = (s: string) => (s ? s.split(":") : []);
  // A trailing IPv4 part (::1.2.3.4) is two groups; only the first four groups matter here.
  const groups = (s: string) => part(s).flatMap((g) => (g.includes(".") ? ["0", "0"] : [g]));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const middle = Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0");
  return [...left, ...middle, ...right].map((g) => g.replace(/^0+(?=.)/, ""));
}

/** The stamped address of a request (see CLIENT_ADDRESS_HEADER). */
export function requestAddress(headers: Headers): string {
  return normalizeAddress(headers.get(CLIENT_ADDRESS_HEADER) ?? undefined);
}
