import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api } from "../harness/api";
import { startServer, type TestServer } from "../harness/server";

let server: TestServer;
let api: Api;
beforeAll(async () => {
  server = await startServer({ X3D_ENGINE_BODY_TIMEOUT: "2" });
  api = new Api(server.url);
});
afterAll(() => server?.dispose());

/**
 * POSTs a multipart head announcing `contentLength` bytes, writes `send` bytes of file and
 * then nothing more; resolves with the answer, when it came, and how much was written.
 */
function partialUpload(
  route: string,
  token: string,
  contentLength: number | undefined,
  send: number,
): Promise<{ ms: number; status: number; body: { code: number; msg: string } }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const head = '--XyZ\r\nContent-Disposition: form-data; name="mesh"; filename="big.stl"\r\nContent-Type: model/stl\r\n\r\n';
    const req = http.request(`${server.url}/open-api/v1/${route}`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "multipart/form-data; boundary=XyZ",
        ...(contentLength === undefined ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(contentLength) }),
      },
    });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => {
        req.destroy();
        resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, body: JSON.parse(text) as { code: number; msg: string } });
      });
    });
    req.on("error", reject);
    req.write(head);
    if (send > 0) req.write(Buffer.alloc(send, 0x61));
    // The request is never ended: the client keeps the connection open and sends nothing more.
  });
}

describe("create bodies: size refused up front, stalls given up", () => {
  it("an announced 600 MB mesh upload is refused at once from its Content-Length (10030006), nothing charged", async () => {
    const token = await api.getToken();
    const before = await api.balance();
    const answer = await partialUpload("split/create-task", token, 600 * 1024 * 1024, 64 * 1024);
    expect(answer.body.code).toBe(10030006);
    expect(answer.body.msg).toMatch(/201 MB/);
    expect(answer.ms).toBeLessThan(1500);
    expect(await api.balance()).toBe(before);
  });

  it("a body that stalls is given up after X3D_ENGINE_BODY_TIMEOUT (2 s here) with 10030013, nothing charged", async () => {
    const token = await api.getToken();
    const before = await api.balance();
    const answer = await partialUpload("segmentation/create-task", token, undefined, 1000);
    expect(answer.status).toBe(408);
    expect(answer.body.code).toBe(10030013);
    expect(answer.ms).toBeGreaterThanOrEqual(1900);
    expect(answer.ms).toBeLessThan(6000);
    expect(await api.balance()).toBe(before);
  });
});
