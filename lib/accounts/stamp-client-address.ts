import "server-only";
import http from "node:http";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "./client-address";

const INSTALLED = Symbol.for("x3d.stampClientAddress");
type Patched = typeof http.Server.prototype & { [INSTALLED]?: true };

/**
 * Makes every Node HTTP server of this process set CLIENT_ADDRESS_HEADER on each request as it
 * arrives, from the socket (and X-Forwarded-For's last `trustedProxies` hops): a value the
 * client sent under that name is replaced. Once per process; call it at startup, before
 * requests (instrumentation.ts). A request that arrived earlier has no stamp and is counted
 * as UNKNOWN_ADDRESS.
 */
export function stampClientAddress(trustedProxies: number): void {
  const proto: Patched = http.Server.prototype;
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function stampingEmit(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request" && args[0] instanceof http.IncomingMessage) {
      const request = args[0];
      request.headers[CLIENT_ADDRESS_HEADER] = clientAddress(
        request.socket?.remoteAddress,
        request.headers["x-forwarded-for"],
        trustedProxies,
      );
    }
    return (emit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  };
}
