import "server-only";
import http from "node:http";
import { oncePerProcess } from "@/lib/global-singleton";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "./client-address";

/**
 * Makes every Node HTTP server of this process set CLIENT_ADDRESS_HEADER on each request as it
 * arrives, from the socket (and X-Forwarded-For's last `trustedProxies` hops): a value the
 * client sent under that name is replaced. Once per process; call it at startup, before
 * requests (instrumentation.ts). A request that arrived earlier has no stamp and is counted
 * as UNKNOWN_ADDRESS.
 */
export function stampClientAddress(trustedProxies: number): void {
  oncePerProcess("x3d.stampClientAddress", () => install(trustedProxies));
}

function install(trustedProxies: number): void {
  const proto = http.Server.prototype;
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
