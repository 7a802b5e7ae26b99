import "server-only";

import dns, { type LookupAddress } from "node:dns";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import net, { type LookupFunction } from "node:net";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { HEAD_BYTES } from "@/lib/files/sniff";
import { isLoopbackAddress, isPublicAddress } from "./ip-address";

export { isPublicAddress };

/**
 * Outgoing HTTP for user-given URLs (mesh_url, image_url, callbacks) without SSRF:
 * only http(s); every address the host name resolves to must be public; the connection is
 * pinned to the checked addresses (a custom `lookup`, so DNS rebinding can't swap them)
 * while Host and SNI keep the name; redirects are followed by hand and checked again;
 * the response size and the total time are bounded.
 */

export type SafeFetchErrorKind = "bad-url" | "blocked-address" | "too-large" | "timeout" | "http-status" | "network" | "too-many-redirects";

export class SafeFetchError extends Error {
  readonly kind: SafeFetchErrorKind;
  /** The HTTP status, for "http-status". */
  readonly status: number | undefined;
  constructor(kind: SafeFetchErrorKind, message: string, status?: number) {
    super(message);
    this.name = "SafeFetchError";
    this.kind = kind;
    this.status = status;
  }
}

export interface SafeFetchOptions {
  /** Most bytes of response body (checked against Content-Length and while streaming). */
  maxBytes: number;
  /** For the whole exchange: resolving, connecting, redirects and reading the body. */
  timeoutMs: number;
  /** Skip the address checks (local development, tests). */
  allowPrivate: boolean;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  /** e.g. "http://localhost:3000": URLs of exactly this origin may resolve to loopback. */
  allowLoopbackOrigin?: string;
  /**
   * e.g. "http://web:3000": URLs of exactly this origin may resolve to any address, private ones
   * included. Only for an origin the operator named (a worker's X3D_WEB_URL), never a client's.
   */
  trustedOrigin?: string;
  /** Aborts the exchange (also the body); the error is then the signal's reason. */
  signal?: AbortSignal;
  /** Name resolution; defaults to dns.lookup(host, { all: true }). Meant for tests. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

export type SafeRequestOptions = Omit<SafeFetchOptions, "method" | "body">;

export interface DownloadResult {
  size: number;
  /** The first HEAD_BYTES bytes (fewer if the body is shorter). */
  head: Uint8Array;
  contentType: string | null;
}

export interface SafeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: string;
  /** The body, limited to maxBytes and to the deadline; errors are SafeFetchErrors. Consume or destroy it. */
  body: Readable;
}

const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

// ---------------------------------------------------------------- address classification

/** The total time limit, and the caller's signal: `signal` aborts with the reason for either. */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onExternal = () => {
    if (this.external) this.controller.abort(reasonOf(this.external));
  };
  readonly signal = this.controller.signal;
  constructor(
    ms: number,
    what: string,
    private readonly external: AbortSignal | undefined,
  ) {
    const timeout = () => this.controller.abort(new SafeFetchError("timeout", `${what} timed out after ${ms} ms`));
    this.timer = setTimeout(timeout, ms);
    if (external?.aborted) this.onExternal();
    else external?.addEventListener("abort", this.onExternal, { once: true });
  }
  race<T>(p: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.signal.reason);
      if (this.signal.aborted) return onAbort();
      this.signal.addEventListener("abort", onAbort, { once: true });
      p.then(resolve, reject).finally(() => this.signal.removeEventListener("abort", onAbort));
    });
  }
  clear(): void {
    clearTimeout(this.timer);
    this.external?.removeEventListener("abort", this.onExternal);
  }
}

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new SafeFetchError("network", "The request was aborted");
}

const hostOf = (u: URL) => u.hostname.replace(/^\[(.*)\]$/, "$1");
const asError = (e: unknown, what: string) =>
  e instanceof SafeFetchError ? e : new SafeFetchError("network", `${what}: ${(e as Error)?.message ?? String(e)}`);

function parseUrl(raw: string, base?: URL): URL {
  let u: URL;
  try {
    u = new URL(raw, base);
  } catch {
    throw new SafeFetchError("bad-url", `Not a valid URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new SafeFetchError("bad-url", `Only http and https URLs can be fetched, not ${u.protocol}`);
  }
  if (!u.hostname) throw new SafeFetchError("bad-url", "The URL has no host");
  return u;
}

async function checkedAddresses(target: URL, opts: SafeFetchOptions): Promise<LookupAddress[]> {
  const host = hostOf(target);
  const family = net.isIP(host);
  let addresses: LookupAddress[];
  if (family !== 0) addresses = [{ address: host, family }];
  else {
    const resolve = opts.resolve ?? ((h: string) => dns.promises.lookup(h, { all: true }));
    try {
      addresses = await resolve(host);
    } catch (e) {
      throw asError(e, `Could not resolve ${host}`);
    }
    if (addresses.length === 0) throw new SafeFetchError("network", `Could not resolve ${host}`);
  }
  if (opts.allowPrivate || addresses.every((a) => isPublicAddress(a.address))) return addresses;
  if (opts.trustedOrigin !== undefined && URL.canParse(opts.trustedOrigin) && new URL(opts.trustedOrigin).origin === target.origin)
    return addresses;
  if (
    opts.allowLoopbackOrigin !== undefined &&
    URL.canParse(opts.allowLoopbackOrigin) &&
    new URL(opts.allowLoopbackOrigin).origin === target.origin &&
    addresses.every((a) => isLoopbackAddress(a.address))
  ) {
    return addresses;
  }
  const bad = addresses.find((a) => !isPublicAddress(a.address))?.address ?? "";
  const why = `${host} resolves to ${bad}, a private, loopback or reserved address; only public addresses can be fetched`;
  throw new SafeFetchError("blocked-address", why);
}

interface Hop {
  target: URL;
  method: string;
  body: string | undefined;
  headers: Record<string, string>;
}

function send({ target, method, body, headers }: Hop, addresses: LookupAddress[], signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    // Called by net only for names (not IP literals): answer with the checked addresses.
    const lookup: LookupFunction = (_name, options, cb) => {
      if (options.all) return cb(null, addresses);
      const [first] = addresses;
      if (!first) return cb(new Error("no checked address to connect to"), "", 4);
      cb(null, first.address, first.family);
    };
    const req = (target.protocol === "https:" ? https : http).request(
      {
        protocol: target.protocol,
        hostname: hostOf(target),
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method,
        headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
        auth: target.username ? `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}` : undefined,
        lookup,
        agent: false, // no pooled sockets: each connection goes through `lookup`
      },
      resolve,
    );
    const onAbort = () => req.destroy(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    req.once("close", () => signal.removeEventListener("abort", onAbort));
    req.on("error", (e) => reject(asError(e, `Request to ${target.host} failed`)));
    req.end(body);
  });
}

function limitBody(res: IncomingMessage, maxBytes: number, deadline: Deadline, host: string): Readable {
  let received = 0;
  const tooLarge = () => new SafeFetchError("too-large", `The response from ${host} is larger than ${maxBytes} bytes`);
  const body = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      received += chunk.length;
      cb(received > maxBytes ? tooLarge() : null, chunk);
    },
  });
  const onAbort = () => body.destroy(deadline.signal.reason as Error);
  deadline.signal.addEventListener("abort", onAbort, { once: true });
  res.on("error", (e) => body.destroy(asError(e, `Reading the response from ${host} failed`)));
  res.on("close", () => {
    if (!res.complete) body.destroy(new SafeFetchError("network", `${host} closed the connection mid-response`));
  });
  body.on("close", () => {
    deadline.clear();
    deadline.signal.removeEventListener("abort", onAbort);
    res.destroy();
  });
  res.pipe(body);
  return body;
}

/** Sends one request and returns the response with a limited body stream. Does not check the status. */
export async function safeFetch(url: string, opts: SafeFetchOptions): Promise<SafeResponse> {
  let target = parseUrl(url);
  const deadline = new Deadline(opts.timeoutMs, `Fetching ${target.host}`, opts.signal);
  const headers: Record<string, string> = { "user-agent": "x3d-studio", accept: "*/*", "accept-encoding": "identity" };
  for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k.toLowerCase()] = v;
  const hop: Hop = { target, method: opts.method ?? "GET", body: opts.body, headers };
  try {
    for (let redirects = 0; ; redirects++) {
      const addresses = await deadline.race(checkedAddresses(target, opts));
      const res = await deadline.race(send(hop, addresses, deadline.signal));
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) {
        res.destroy();
        if (redirects >= MAX_REDIRECTS) {
          throw new SafeFetchError("too-many-redirects", `More than ${MAX_REDIRECTS} redirects, last from ${target.host}`);
        }
        const next = parseUrl(location, target);
        if (next.origin !== target.origin) for (const h of CREDENTIAL_HEADERS) delete hop.headers[h];
        if (status === 303 || ((status === 301 || status === 302) && hop.method === "POST")) {
          Object.assign(hop, { method: "GET", body: undefined });
          delete hop.headers["content-type"];
        }
        hop.target = target = next;
        continue;
      }
      const declared = res.headers["content-length"];
      if (declared !== undefined && Number(declared) > opts.maxBytes) {
        res.destroy();
        const why = `The response from ${target.host} is ${declared} bytes, more than the limit of ${opts.maxBytes}`;
        throw new SafeFetchError("too-large", why);
      }
      return { status, headers: res.headers, url: target.href, body: limitBody(res, opts.maxBytes, deadline, target.host) };
    }
  } catch (e) {
    deadline.clear();
    throw deadline.signal.aborted ? reasonOf(deadline.signal) : asError(e, `Request to ${target.host} failed`);
  }
}

/** GETs `url` into `destPath` (deleted again on any failure). Non-2xx answers are "http-status" errors. */
export async function safeDownload(url: string, destPath: string, opts: SafeRequestOptions): Promise<DownloadResult> {
  const res = await safeFetch(url, { ...opts, method: "GET", body: undefined });
  if (res.status < 200 || res.status > 299) {
    res.body.destroy();
    throw new SafeFetchError("http-status", `${new URL(res.url).host} answered HTTP ${res.status}`, res.status);
  }
  let size = 0;
  let head = Buffer.alloc(0);
  const out = createWriteStream(destPath);
  const closed = new Promise<void>((resolve) => out.once("close", resolve));
  try {
    await pipeline(
      res.body,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
          yield chunk;
        }
      },
      out,
    );
  } catch (e) {
    await closed;
    await rm(destPath, { force: true });
    throw opts.signal?.aborted ? reasonOf(opts.signal) : asError(e, `Downloading ${url} failed`);
  }
  return { size, head: new Uint8Array(head), contentType: res.headers["content-type"] ?? null };
}

/**
 * POSTs JSON and returns the status (any status; redirects are followed). The response body
 * is not read. A string `jsonBody` is sent as is (already serialised); anything else is stringified.
 */
export async function safePost(url: string, jsonBody: unknown, opts: SafeRequestOptions): Promise<{ status: number }> {
  const headers = { "content-type": "application/json", ...opts.headers };
  const body = typeof jsonBody === "string" ? jsonBody : JSON.stringify(jsonBody);
  const res = await safeFetch(url, { ...opts, headers, method: "POST", body });
  res.body.destroy();
  return { status: res.status };
}
