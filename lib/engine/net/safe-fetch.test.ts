import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isPublicAddress, SafeFetchError, type SafeFetchOptions, safeDownload, safeFetch, safePost } from "./safe-fetch";

// Only servers on 127.0.0.1 are contacted; names are resolved by `resolve` stubs or are "localhost".

interface TestServer {
  url: string;
  origin: string;
  port: number;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  connections: number;
  close: () => Promise<void>;
}

const servers: TestServer[] = [];

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<TestServer> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      s.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on("connection", () => s.connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const s: TestServer = {
    port,
    origin: `http://127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/`,
    requests: [],
    connections: 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(s);
  return s;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "safe-fetch-test-"));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

const base: SafeFetchOptions = { maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: false };
const local: SafeFetchOptions = { ...base, allowPrivate: true };

async function failure(p: Promise<unknown>, kind: string): Promise<SafeFetchError> {
  const e = await p.then(
    () => expect.fail(`expected a SafeFetchError (${kind})`),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SafeFetchError);
  expect((e as SafeFetchError).kind, (e as Error).message).toBe(kind);
  return e as SafeFetchError;
}

const hello = () => serve((_req, res) => res.end("hello"));

describe("isPublicAddress", () => {
  const publicAddresses = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.169.0.1",
    "169.253.255.255",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "9.255.255.255",
    "11.0.0.0",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2a00:1450:4001:81c::200e",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "64:ff9b::808:808",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
    "[2606:4700::1]",
  ];
  const blocked = [
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "10.255.255.255",
    "100.64.0.1",
    "100.127.255.255",
    "127.0.0.1",
    "127.1.2.3",
    "169.254.169.254",
    "169.254.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "192.0.0.192",
    "192.0.2.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.1",
    "203.0.113.1",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "0:0:0:0:0:0:0:1",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::ffff:100.64.0.1",
    "::ffff:0.0.0.0",
    "::127.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b::a00:1",
    "64:ff9b:1::1",
    "2002:7f00:1::1",
    "2002:c0a8:101::",
    "2002:a9fe:a9fe::",
    "fc00::1",
    "fd00:ec2::254",
    "fdff:ffff::1",
    "fe80::1",
    "fe80::1%eth0",
    "febf::1",
    "fec0::1",
    "ff02::1",
    "ff05::2",
    "2001:db8::1",
    "2001::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "3fff::1",
    "100::1",
    "::2",
    "1::",
  ];
  const invalid = [
    "",
    "localhost",
    "example.com",
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "01.2.3.4",
    "1.2.3.-1",
    "::g",
    "1::2::3",
    "1:2:3:4:5:6:7:8:9",
    "0x7f.0.0.1",
    "2130706433",
  ];

  it.each(publicAddresses)("%s is public", (ip) => expect(isPublicAddress(ip)).toBe(true));
  it.each(blocked)("%s is not public", (ip) => expect(isPublicAddress(ip)).toBe(false));
  it.each(invalid)("%j is not an address", (ip) => expect(isPublicAddress(ip)).toBe(false));
});

describe("safeFetch", () => {
  it("refuses schemes other than http and https, and bad URLs", async () => {
    for (const url of ["ftp://example.com/a.glb", "file:///etc/passwd", "javascript:alert(1)", "data:,x", "gopher://x/"]) {
      const e = await failure(safeFetch(url, local), "bad-url");
      expect(e.message).toMatch(/http/);
    }
    await failure(safeFetch("not a url", local), "bad-url");
    await failure(safeFetch("http://", local), "bad-url");
  });

  it("blocks loopback without allowPrivate and never connects", async () => {
    const s = await hello();
    const e = await failure(safeFetch(s.url, base), "blocked-address");
    expect(e.message).toContain("127.0.0.1");
    await failure(safeFetch(`http://localhost:${s.port}/`, base), "blocked-address");
    await failure(safeFetch(`http://[::ffff:127.0.0.1]:${s.port}/`, base), "blocked-address");
    await failure(safeFetch(`http://2130706433:${s.port}/`, base), "blocked-address"); // 127.0.0.1 as one number
    await failure(safeFetch("http://169.254.169.254/latest/meta-data/", base), "blocked-address");
    expect(s.connections).toBe(0);
  });

  it("fetches a private address with allowPrivate", async () => {
    const s = await hello();
    const res = await safeFetch(`${s.url}path?q=1`, local);
    expect(res.status).toBe(200);
    expect((await res.body.toArray()).join("")).toBe("hello");
    expect(s.requests[0]?.url).toBe("/path?q=1");
  });

  it("allows loopback URLs of exactly the allowLoopbackOrigin", async () => {
    const s = await hello();
    const other = await hello();
    const res = await safeFetch(`${s.origin}/x`, { ...base, allowLoopbackOrigin: s.origin });
    expect((await res.body.toArray()).join("")).toBe("hello");
    const viaName = await safeFetch(`http://localhost:${s.port}/`, { ...base, allowLoopbackOrigin: `http://localhost:${s.port}` });
    expect((await viaName.body.toArray()).join("")).toBe("hello");
    await failure(safeFetch(other.url, { ...base, allowLoopbackOrigin: s.origin }), "blocked-address");
    await failure(safeFetch(`http://localhost:${s.port}/`, { ...base, allowLoopbackOrigin: s.origin }), "blocked-address");
    expect(other.connections).toBe(0);
  });

  it("allows any address for exactly the trustedOrigin (a worker's X3D_WEB_URL), and nothing else by it", async () => {
    const s = await hello();
    const other = await hello();
    // A name the operator gave (e.g. compose's http://web:3000) that resolves to a non-public address.
    const resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    const trusted = `http://web.internal:${s.port}`;
    const res = await safeFetch(`${trusted}/api/callbacks/t/s`, { ...base, resolve, trustedOrigin: trusted });
    expect((await res.body.toArray()).join("")).toBe("hello");
    expect(s.requests[0]?.url).toBe("/api/callbacks/t/s");
    // Another port, another name or another scheme is not the trusted origin.
    await failure(safeFetch(`http://web.internal:${other.port}/`, { ...base, resolve, trustedOrigin: trusted }), "blocked-address");
    await failure(safeFetch(`http://db.internal:${s.port}/`, { ...base, resolve, trustedOrigin: trusted }), "blocked-address");
    await failure(safeFetch(`${trusted}/`, { ...base, resolve, trustedOrigin: "not a url" }), "blocked-address");
    expect(other.connections).toBe(0);
  });

  it("refuses a name if any of its addresses is not public", async () => {
    const resolve = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ];
    const e = await failure(safeFetch("http://mixed.example.test/", { ...base, resolve }), "blocked-address");
    expect(e.message).toContain("10.0.0.7");
    const v6 = async () => [{ address: "fd00::1", family: 6 }];
    await failure(safeFetch("https://v6.example.test/", { ...base, resolve: v6 }), "blocked-address");
  });

  it("connects to the checked address, keeping the name in the Host header", async () => {
    const s = await hello();
    let lookups = 0;
    const resolve = async (host: string) => {
      lookups++;
      expect(host).toBe("files.example.test");
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const res = await safeFetch(`http://files.example.test:${s.port}/m.glb`, { ...local, resolve });
    await res.body.toArray();
    expect(lookups).toBe(1);
    expect(s.requests[0]?.headers.host).toBe(`files.example.test:${s.port}`);
  });

  it("fails on unresolvable names and refused connections as network errors", async () => {
    const resolve = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.test"), { code: "ENOTFOUND" });
    };
    await failure(safeFetch("http://nowhere.test/", { ...base, resolve }), "network");
    const s = await hello();
    const port = s.port;
    await s.close();
    await failure(safeFetch(`http://127.0.0.1:${port}/`, local), "network");
  });

  it("refuses a Content-Length over the limit before reading", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-length": String(10_000_000) });
      res.write(Buffer.alloc(1000));
    });
    const e = await failure(safeFetch(s.url, { ...local, maxBytes: 5000 }), "too-large");
    expect(e.message).toContain("10000000");
  });

  it("stops a chunked body at the limit while streaming", async () => {
    let sent = 0;
    let finished = false;
    const s = await serve((_req, res) => {
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        finished = true;
        res.end();
      };
      res.on("close", () => res.removeAllListeners("drain"));
      pump();
    });
    const dest = path.join(dir, "big.bin");
    await failure(safeDownload(s.url, dest, { ...local, maxBytes: 200_000 }), "too-large");
    expect(existsSync(dest)).toBe(false);
    expect(finished).toBe(false);
    expect(sent).toBeLessThan(20 * 1024 * 1024);
  });

  it("times out on a server that never answers", async () => {
    const s = await serve(() => {});
    const t0 = Date.now();
    const e = await failure(safeFetch(s.url, { ...local, timeoutMs: 300 }), "timeout");
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(e.message).toContain("300 ms");
  });

  it("times out on a body that stalls, and removes the partial download", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "1000" });
      res.write("partial");
    });
    const dest = path.join(dir, "stalled.bin");
    await failure(safeDownload(s.url, dest, { ...local, timeoutMs: 300 }), "timeout");
    expect(existsSync(dest)).toBe(false);
  });

  it("reports a connection closed mid-body as a network error", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "1000" });
      res.write("partial", () => res.socket?.destroy());
    });
    const dest = path.join(dir, "cut.bin");
    await failure(safeDownload(s.url, dest, local), "network");
    expect(existsSync(dest)).toBe(false);
  });

  it("aborts with the caller's signal", async () => {
    const s = await serve(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("task cancelled")), 50);
    await expect(safeFetch(s.url, { ...local, signal: controller.signal })).rejects.toThrow("task cancelled");
  });
});

describe("redirects", () => {
  const redirector = (to: (n: number) => string, status = 302) =>
    serve((req, res) => {
      const n = Number(req.url?.slice(1) || 0);
      if (req.url === "/done") return void res.end(`done ${req.method}`);
      res.writeHead(status, { location: to(n) }).end();
    });

  it("follows up to 3 redirects, relative and absolute", async () => {
    const s = await redirector((n) => (n < 2 ? `/${n + 1}` : "/done"));
    const res = await safeFetch(s.url, local);
    expect((await res.body.toArray()).join("")).toBe("done GET");
    expect(res.url).toBe(`${s.origin}/done`);
    expect(s.requests.map((r) => r.url)).toEqual(["/", "/1", "/2", "/done"]);
  });

  it("refuses a 4th redirect", async () => {
    const s = await redirector((n) => `${s.origin}/${n + 1}`);
    await failure(safeFetch(s.url, local), "too-many-redirects");
    expect(s.requests).toHaveLength(4);
  });

  it("checks every hop: a redirect to a blocked address is refused", async () => {
    const target = await hello();
    const s = await redirector(() => target.url);
    await failure(safeFetch(s.url, { ...base, allowLoopbackOrigin: s.origin }), "blocked-address");
    const meta = await redirector(() => "http://169.254.169.254/latest/meta-data/");
    await failure(safeFetch(meta.url, { ...base, allowLoopbackOrigin: meta.origin }), "blocked-address");
    expect(target.connections).toBe(0);
  });

  it("refuses a redirect to another scheme", async () => {
    const s = await redirector(() => "file:///etc/passwd");
    await failure(safeFetch(s.url, local), "bad-url");
  });

  it("turns POST into GET on 303 and keeps it on 307, dropping credentials across origins", async () => {
    const target = await serve((req, res, body) => res.end(`${req.method} ${body}`));
    const see = await redirector(() => target.url, 303);
    const r1 = await safePost(see.url, { a: 1 }, local);
    expect(r1.status).toBe(200);
    expect(target.requests[0]).toMatchObject({ method: "GET", body: "" });

    const keep = await redirector(() => target.url, 307);
    await safePost(keep.url, { a: 2 }, { ...local, headers: { Authorization: "Bearer s3cret", "X-Sig": "v1" } });
    expect(keep.requests[0]?.headers.authorization).toBe("Bearer s3cret");
    expect(target.requests[1]).toMatchObject({ method: "POST", body: '{"a":2}' });
    expect(target.requests[1]?.headers.authorization).toBeUndefined();
    expect(target.requests[1]?.headers["x-sig"]).toBe("v1");
  });
});

describe("safeDownload and safePost", () => {
  it("downloads to a file with size, head and content type", async () => {
    const data = Buffer.alloc(100_000);
    for (let i = 0; i < data.length; i++) data[i] = i % 251;
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "model/gltf-binary" });
      res.write(data.subarray(0, 300));
      res.end(data.subarray(300));
    });
    const dest = path.join(dir, "mesh.glb");
    const r = await safeDownload(s.url, dest, local);
    expect(r.size).toBe(data.length);
    expect(r.contentType).toBe("model/gltf-binary");
    expect(Buffer.from(r.head)).toEqual(data.subarray(0, 512));
    expect(await readFile(dest)).toEqual(data);
  });

  it("accepts a body of exactly maxBytes", async () => {
    const s = await serve((_req, res) => res.end(Buffer.alloc(4096)));
    const r = await safeDownload(s.url, path.join(dir, "exact"), { ...local, maxBytes: 4096 });
    expect(r.size).toBe(4096);
  });

  it("fails on a non-2xx status and leaves no file", async () => {
    const s = await serve((_req, res) => res.writeHead(404).end("not found"));
    const dest = path.join(dir, "missing.bin");
    const e = await failure(safeDownload(s.url, dest, local), "http-status");
    expect(e.status).toBe(404);
    expect(existsSync(dest)).toBe(false);
  });

  it("posts JSON and returns any status", async () => {
    const s = await serve((_req, res) => res.writeHead(500).end("oops"));
    expect(await safePost(s.url, { task_id: "t1", status: "done" }, local)).toEqual({ status: 500 });
    expect(s.requests[0]).toMatchObject({ method: "POST", body: '{"task_id":"t1","status":"done"}' });
    expect(s.requests[0]?.headers["content-type"]).toBe("application/json");
    // A string is taken as already serialised JSON.
    await safePost(s.url, '{"x":1}', local);
    expect(s.requests[1]?.body).toBe('{"x":1}');
  });

  it("blocks posts to private addresses", async () => {
    const s = await hello();
    await failure(safePost(s.url, {}, base), "blocked-address");
    expect(s.connections).toBe(0);
  });
});
