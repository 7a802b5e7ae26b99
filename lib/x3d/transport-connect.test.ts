import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createX3dClient, X3dError } from "./client";

/**
 * A TCP server that accepts connections and never says a word: an https client waiting for
 * the TLS handshake is still connecting, so only the connect timeout can end the wait.
 */
const sockets: net.Socket[] = [];
const silent = net.createServer((socket) => void sockets.push(socket));
let port = 0;

beforeAll(async () => {
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  port = (silent.address() as net.AddressInfo).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((r) => silent.close(r));
});

describe("the connect timeout", () => {
  it("ends a connection that never completes, and says the request was never sent", async () => {
    const client = createX3dClient({
      baseUrl: `https://127.0.0.1:${port}`,
      clientId: "id",
      clientSecret: "secret",
      timeouts: { connectMs: 300, headersMs: 20_000, bodyMs: 20_000 },
    });
    const started = performance.now();
    const error = await client.getToken().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(error).toBeInstanceOf(X3dError);
    expect(error).toMatchObject({
      kind: "network",
      mayHaveReached: false,
      msg: "network failure calling /open-api/v1/auth/token: could not connect within 0.3 s",
    });
  });
});
