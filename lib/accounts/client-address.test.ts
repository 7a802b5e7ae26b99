import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, clientAddress, normalizeAddress, requestAddress, throttleNetwork, UNKNOWN_ADDRESS } from "./client-address";
import { stampClientAddress } from "./stamp-client-address";

describe("clientAddress", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress("203.0.113.9", undefined, 0)).toBe("203.0.113.9");
    expect(clientAddress("203.0.113.9", "198.51.100.1", 0)).toBe("203.0.113.9");
    expect(clientAddress("::ffff:127.0.0.1", "10.0.0.1, 10.0.0.2", 0)).toBe("127.0.0.1");
  });

  it("with N trusted proxies is X-Forwarded-For's N-th entry from the right (what the outermost proxy saw)", () => {
    expect(clientAddress("10.0.0.2", "203.0.113.9", 1)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.2", "1.1.1.1, 203.0.113.9", 1)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.2", ["1.1.1.1, 2.2.2.2", "203.0.113.9"], 1)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.3", "1.1.1.1, 203.0.113.9, 10.0.0.2", 2)).toBe("203.0.113.9");
    // Fewer entries than proxies: the leftmost; none: the socket.
    expect(clientAddress("10.0.0.3", "203.0.113.9", 2)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.3", "", 1)).toBe("10.0.0.3");
    expect(clientAddress("10.0.0.3", undefined, 1)).toBe("10.0.0.3");
  });

  it("counts no empty entry as a proxy hop, and falls back to the socket when the header holds none", () => {
    // "1.1.1.1, , 203.0.113.9" is two hops: with two proxies, the client is 1.1.1.1.
    expect(clientAddress("10.0.0.3", "1.1.1.1, , 203.0.113.9", 2)).toBe("1.1.1.1");
    expect(clientAddress("10.0.0.2", "203.0.113.9, ", 1)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.3", " , ", 1)).toBe("10.0.0.3");
    expect(clientAddress("10.0.0.3", ["", ""], 1)).toBe("10.0.0.3");
  });

  it("is UNKNOWN_ADDRESS for what is not an IP address", () => {
    expect(clientAddress(undefined, undefined, 0)).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress("10.0.0.2", "unknown", 1)).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress("10.0.0.2", "evil.example", 1)).toBe(UNKNOWN_ADDRESS);
  });
});

describe("normalizeAddress", () => {
  it("writes one address one way: no port, brackets or zone; IPv4-mapped IPv6 as IPv4; lower case", () => {
    expect(normalizeAddress("203.0.113.9:51234")).toBe("203.0.113.9");
    expect(normalizeAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(normalizeAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeAddress(" 2001:db8::1 ")).toBe("2001:db8::1");
    expect(normalizeAddress("[2001:db8::1]")).toBe("2001:db8::1");
  });

  it("takes no IPv6 group for a port", () => {
    expect(normalizeAddress("2001:4860:4860::8888")).toBe("2001:4860:4860::8888");
    expect(normalizeAddress("2001:db8::1:80")).toBe("2001:db8::1:80");
  });

  it("writes only IPv4-mapped addresses as IPv4: another IPv6 address with an IPv4 tail stays IPv6", () => {
    expect(normalizeAddress("::fffe:192.0.2.1")).toBe("::fffe:192.0.2.1");
    expect(normalizeAddress("64:ff9b::192.0.2.1")).toBe("64:ff9b::192.0.2.1");
  });

  it("is UNKNOWN_ADDRESS for an address with anything around it", () => {
    expect(normalizeAddress("junk[2001:db8::1]:443")).toBe(UNKNOWN_ADDRESS);
    expect(normalizeAddress("[2001:db8::1]:443junk")).toBe(UNKNOWN_ADDRESS);
    expect(normalizeAddress("203.0.113.9:80junk")).toBe(UNKNOWN_ADDRESS);
    expect(normalizeAddress("")).toBe(UNKNOWN_ADDRESS);
  });
});

describe("throttleNetwork", () => {
  it("counts IPv4 addresses singly and IPv6 addresses by their /64", () => {
    expect(throttleNetwork("203.0.113.9")).toBe("203.0.113.9");
    expect(throttleNetwork("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(throttleNetwork("2001:db8:1:2:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(throttleNetwork("2001:0db8:0001:0002:0:0:0:9")).toBe("2001:db8:1:2::/64");
    expect(throttleNetwork("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(throttleNetwork("::1")).toBe("0:0:0:0::/64");
    expect(throttleNetwork("::ffff:1.2.3.4")).toBe("0:0:0:0::/64");
  });

  it("finds the /64 of an address whose zeros are compressed early and which has many groups after them", () => {
    expect(throttleNetwork("2001:db8::1:2:3:4:5")).toBe("2001:db8:0:1::/64");
    expect(throttleNetwork("2001:db8::1:2:3:192.0.2.1")).toBe("2001:db8:0:1::/64");
    expect(throttleNetwork("2001:db8::2:3:192.0.2.1")).toBe("2001:db8:0:0::/64");
  });
});

describe("stampClientAddress", () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    stampClientAddress(0);
    server = http.createServer((req, res) => res.end(String(req.headers[CLIENT_ADDRESS_HEADER])));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sets the socket's address on every request, replacing one the client sent, and ignoring X-Forwarded-For", async () => {
    expect(await (await fetch(base)).text()).toBe("127.0.0.1");
    const forged = await fetch(base, { headers: { [CLIENT_ADDRESS_HEADER]: "198.51.100.1", "x-forwarded-for": "198.51.100.2" } });
    expect(await forged.text()).toBe("127.0.0.1");
  });

  it("is read back from a request's headers; a request without it counts as UNKNOWN_ADDRESS", () => {
    expect(requestAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: "127.0.0.1" }))).toBe("127.0.0.1");
    expect(requestAddress(new Headers())).toBe(UNKNOWN_ADDRESS);
  });
});
