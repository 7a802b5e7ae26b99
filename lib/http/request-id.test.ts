import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { currentRequestId } from "@/lib/log";
import { requestIdFor, stampRequestIds } from "./request-id";

describe("requestIdFor", () => {
  it.each(["abc", "lb-7f3a.01:2", "0f8fad5b-d9cb-469f-a165-70867728950e", "x".repeat(64)])("keeps the sane %s", (id) => {
    expect(requestIdFor(id)).toBe(id);
  });

  it.each([["two words"], ["x".repeat(65)], ["-dash-first"], ["semi;colon"], ["new\nline"], [""], [["a", "b"]], [undefined]])(
    "replaces %j with a new id",
    (incoming) => {
      const id = requestIdFor(incoming);
      expect(id).not.toBe(incoming);
      expect(id).toMatch(/^[\w-]{22}$/);
    },
  );

  it("makes a different id each time", () => {
    expect(requestIdFor(undefined)).not.toBe(requestIdFor(undefined));
  });
});

describe("stampRequestIds", () => {
  it("serves each request of a Node server under its id: in the header both ways, and in the log context across awaits", async () => {
    stampRequestIds();
    stampRequestIds(); // once per process, however often called
    const seen: { header?: string; context?: string }[] = [];
    const server = http.createServer((req, res) => {
      void (async () => {
        await new Promise((r) => setTimeout(r, 5));
        seen.push({ header: req.headers["x-request-id"] as string, context: currentRequestId() });
        res.end("ok");
      })();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const given = await fetch(url, { headers: { "x-request-id": "proxy-42" } });
      const made = await fetch(url, { headers: { "x-request-id": "not sane" } });
      expect(given.headers.get("x-request-id")).toBe("proxy-42");
      const madeId = made.headers.get("x-request-id");
      expect(madeId).toMatch(/^[\w-]{22}$/);
      expect(seen).toEqual([
        { header: "proxy-42", context: "proxy-42" },
        { header: madeId, context: madeId },
      ]);
    } finally {
      server.close();
    }
    expect(currentRequestId()).toBeUndefined();
  });

  it("leaves other events, and a request event without Node's request and response, as they were", () => {
    stampRequestIds();
    const server = http.createServer();
    const got: unknown[] = [];
    server.on("x3d-test", (value: unknown) => got.push([value, currentRequestId()]));
    server.on("request", (req: { headers: Record<string, string> }) => got.push([{ ...req.headers }, currentRequestId()]));
    expect(server.emit("x3d-test", 7)).toBe(true);
    expect(server.emit("request", { headers: { "x-request-id": "not sane" } }, {})).toBe(true);
    expect(got).toEqual([
      [7, undefined],
      [{ "x-request-id": "not sane" }, undefined],
    ]);
  });
});
