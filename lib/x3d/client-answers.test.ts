/**
 * How the client reads what comes back, with fetch replaced at the edge: answers that break
 * the envelope, codes that disagree with the HTTP status, bodies that break off, failures
 * before and after sending, and the requests it builds.
 */
import { describe, expect, it } from "vitest";
import { createX3dClient, X3dError, type X3dClientOptions } from "./client";
import { ERRORS } from "./errors";

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

const TOKEN = { code: 200, msg: "success", data: { accessToken: "tok", tokenType: "Bearer", nonce: "n" } };
const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

/** A client whose fetch answers auth/token with a token and every other call with `answer`. */
function clientWith(answer: (seen: Seen) => Response | Promise<Response>, extra: Partial<X3dClientOptions> = {}) {
  const seen: Seen[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request: Seen = {
      url: String(input),
      method: init?.method ?? "GET",
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: init?.body,
    };
    seen.push(request);
    return request.url.endsWith("/auth/token") ? json(TOKEN) : answer(request);
  };
  const client = createX3dClient({
    baseUrl: "http://x3d.test",
    clientId: "id",
    clientSecret: "secret",
    fetch: fetch as typeof globalThis.fetch,
    ...extra,
  });
  return { client, seen };
}

async function rejection(promise: Promise<unknown>): Promise<X3dError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(X3dError);
  return error as X3dError;
}

describe("answers that break the envelope", () => {
  it("refuses code 200 with an HTTP error status", async () => {
    const { client } = clientWith(() => json({ code: 200, msg: "success", data: { totalBalance: 3 } }, 500));
    const error = await rejection(client.balance());
    expect(error).toMatchObject({ code: 10000000, kind: "response", httpStatus: 500, msg: "balance answered code 200 with HTTP 500" });
    expect(error.message).toBe("x3d 10000000: balance answered code 200 with HTTP 500");
    expect(error.name).toBe("X3dError");
  });

  it("takes code 200 with any 2xx status, and refuses 3xx", async () => {
    const ok = clientWith(() => json({ code: 200, msg: "success", data: { totalBalance: 3 } }, 299));
    await expect(ok.client.balance()).resolves.toEqual({ totalBalance: 3 });
    const redirect = clientWith(() => json({ code: 200, msg: "success", data: { totalBalance: 3 } }, 300));
    expect(await rejection(redirect.client.balance())).toMatchObject({ kind: "response", httpStatus: 300 });
  });

  it("refuses JSON without a code, naming the path and keeping the issues", async () => {
    const { client } = clientWith(() => json({ data: { totalBalance: 3 } }));
    const error = await rejection(client.balance());
    expect(error).toMatchObject({ code: 10000000, kind: "response", httpStatus: 200, mayHaveReached: true });
    expect(error.msg).toMatch(/^balance answered without an envelope: /);
    expect(error.issues?.[0]?.path).toEqual(["code"]);
  });

  it("names the path of an answer that does not match its schema", async () => {
    const { client } = clientWith(() => json({ code: 200, msg: "success", data: { task_id: "t", state: "done" } }));
    const error = await rejection(client.queryTask("t"));
    expect(error.msg).toMatch(/^query-task answer does not match its schema: /);
    expect(error.issues?.[0]?.path).toEqual(["data", "state"]);
  });

  it("shows the first 120 characters of a non-JSON answer", async () => {
    const page = `<html>${"x".repeat(200)}</html>`;
    const { client } = clientWith(() => new Response(page, { status: 503 }));
    const error = await rejection(client.balance());
    expect(error.msg).toBe(`non-JSON answer from /open-api/v1/balance (HTTP 503): ${page.slice(0, 120)}`);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});

describe("service errors", () => {
  it("carry the service's msg, or its message when msg is absent, or nothing", async () => {
    const withMessage = clientWith(() => json({ code: 30010000, message: "balance is not enough", data: {} }));
    expect(await rejection(withMessage.client.balance())).toMatchObject({ code: 30010000, msg: "balance is not enough", kind: "service" });
    const bare = clientWith(() => json({ code: 10030010 }));
    const error = await rejection(bare.client.queryTask("gone"));
    expect(error).toMatchObject({ code: 10030010, msg: "", userMessage: ERRORS[10030010].user, mayHaveReached: true });
  });

  it("word a code the catalogue does not know", async () => {
    const { client } = clientWith(() => json({ code: 12345, msg: "new error", data: {} }));
    expect((await rejection(client.balance())).userMessage).toBe("The service answered with error 12345.");
  });

  it("read an HTTP 401 without a JSON body as 401 Unauthorized, after one renewal", async () => {
    const { client, seen } = clientWith(() => new Response("Unauthorized", { status: 401 }));
    expect(await rejection(client.balance())).toMatchObject({ code: 401, msg: "Unauthorized", kind: "service", httpStatus: 401 });
    expect(seen.map((s) => s.url.replace("http://x3d.test/open-api/v1/", ""))).toEqual(["auth/token", "balance", "auth/token", "balance"]);
  });
});

describe("failures of the connection", () => {
  const refused = () => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }));

  it("say where the call went and that it never reached a service that refused the connection", async () => {
    const { client } = clientWith(refused);
    const error = await rejection(client.balance());
    expect(error).toMatchObject({
      code: 10000000,
      kind: "network",
      mayHaveReached: false,
      msg: "network failure calling /open-api/v1/balance: connection refused",
    });
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it("name the client's own timeouts when a phase timed out", async () => {
    const timedOut = () => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "UND_ERR_HEADERS_TIMEOUT" } }));
    const { client } = clientWith(timedOut, { timeouts: { connectMs: 1_000, headersMs: 5_000, bodyMs: 1_000 } });
    const error = await rejection(client.balance());
    expect(error).toMatchObject({ mayHaveReached: true, msg: "network failure calling /open-api/v1/balance: no answer within 5 s" });
  });

  it("say that an answer whose body broke off may have been acted on", async () => {
    const broken = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"code":'));
        controller.error(new Error("socket closed"));
      },
    });
    const { client } = clientWith(() => new Response(broken, { status: 200 }));
    const error = await rejection(client.createSplitTask({ mesh_url: "https://cdn.example/m.glb" }));
    expect(error).toMatchObject({
      kind: "network",
      mayHaveReached: true,
      msg: "the answer from /open-api/v1/split/create-task broke off: socket closed",
    });
  });
});

describe("the client's configuration and input", () => {
  it("refuses a base URL that is not http(s) and empty credentials, before any request", () => {
    const make = (o: Partial<X3dClientOptions>) => () =>
      createX3dClient({ baseUrl: "http://x3d.test", clientId: "id", clientSecret: "s", ...o });
    for (const bad of [{ baseUrl: "ftp://x3d.test" }, { clientId: "" }, { clientSecret: "" }]) {
      let thrown: unknown;
      try {
        make(bad)();
      } catch (e) {
        thrown = e;
      }
      expect(thrown, JSON.stringify(bad)).toBeInstanceOf(X3dError);
      expect(thrown).toMatchObject({ code: 10000000, kind: "input", mayHaveReached: false });
    }
  });

  it("says an input error never reached the service and keeps its issues", async () => {
    const { client, seen } = clientWith(() => json({}));
    const error = await rejection(client.createDepthTask({ image_url: "https://cdn.example/a.png", format: 2, width: 601 }));
    expect(error).toMatchObject({ code: 10033012, kind: "input", mayHaveReached: false });
    expect(error.issues?.map((i) => i.path)).toEqual([["width"]]);
    expect(error.msg).toContain("width");
    expect(seen).toEqual([]);
  });

  it("calls under the base URL's path, without doubled slashes, with the task id as a query parameter", async () => {
    const { client, seen } = clientWith(() => json({ code: 200, msg: "success", data: { task_id: "a b&c", state: "queueing" } }), {
      baseUrl: "http://x3d.test/proxy//",
    });
    await client.querySegmentationTask("  a b&c ");
    expect(seen.map((s) => s.url)).toEqual([
      "http://x3d.test/proxy/open-api/v1/auth/token",
      "http://x3d.test/proxy/open-api/v1/segmentation/query-task?task_id=a+b%26c",
    ]);
    expect(seen[1]).toMatchObject({ method: "GET", headers: { authorization: "Token tok", accept: "application/json" }, body: null });
    expect(seen[0]).toMatchObject({ method: "POST", headers: { "content-type": "application/json", accept: "application/json" } });
  });
});

describe("file parts", () => {
  async function sentFile(data: Blob | Uint8Array | (() => Blob | ReadableStream), type?: string) {
    const { client, seen } = clientWith(() => json({ code: 200, msg: "success", data: { task_id: "s" } }));
    await client.createSegmentationTask({ mesh: { name: "m.glb", type, data } });
    const form = seen[1]?.body as FormData;
    const file = form.get("mesh") as File;
    return { name: file.name, type: file.type, text: await file.text() };
  }

  it("labels the part with the file's type, whatever the data's own", async () => {
    expect(await sentFile(new Blob(["abc"], { type: "text/plain" }), "model/gltf-binary")).toEqual({
      name: "m.glb",
      type: "model/gltf-binary",
      text: "abc",
    });
    expect(await sentFile(new Blob(["abc"], { type: "model/gltf-binary" }), "model/gltf-binary")).toMatchObject({
      type: "model/gltf-binary",
    });
    expect(await sentFile(new TextEncoder().encode("bytes"), "model/gltf-binary")).toEqual({
      name: "m.glb",
      type: "model/gltf-binary",
      text: "bytes",
    });
  });

  it("keeps a Blob's own type when the file gives none", async () => {
    expect(await sentFile(new Blob(["abc"], { type: "model/gltf-binary" }))).toMatchObject({ type: "model/gltf-binary", text: "abc" });
  });

  it("reads data a function produces, stream or Blob, when the request is built", async () => {
    expect(await sentFile(() => new Blob(["streamed"]).stream(), "model/gltf-binary")).toEqual({
      name: "m.glb",
      type: "model/gltf-binary",
      text: "streamed",
    });
    expect(await sentFile(() => new Blob(["blob"]))).toMatchObject({ text: "blob" });
  });
});

describe("what an error carries", () => {
  it("has no cause unless it has one", async () => {
    const { client } = clientWith(() => json({ code: 30010000, msg: "balance is not enough", data: {} }));
    const service = await rejection(client.balance());
    expect(Object.hasOwn(service, "cause")).toBe(false);
    expect(service.httpStatus).toBe(200);
    const input = await rejection(client.queryTask(""));
    expect(input.httpStatus).toBeUndefined();
    expect(Object.hasOwn(input, "cause")).toBe(false);
    expect(input.issues?.[0]?.message).toBe("task_id is required");
  });

  it("keeps the cause of an answer that broke off", async () => {
    const broken = new ReadableStream({
      start(controller) {
        controller.error(new Error("socket closed"));
      },
    });
    const { client } = clientWith(() => new Response(broken, { status: 200 }));
    const error = await rejection(client.balance());
    expect(error.cause).toBeInstanceOf(Error);
    expect((error.cause as Error).message).toBe("socket closed");
  });

  it("keeps the service's own msg of a 401 with a JSON body", async () => {
    const { client } = clientWith(() => json({ code: 401, msg: "token expired", data: {} }, 401));
    expect(await rejection(client.balance())).toMatchObject({ code: 401, msg: "token expired", httpStatus: 401, kind: "service" });
  });

  it("names auth/token when the token answer is not an envelope", async () => {
    const fetch = async () => json({ accessToken: "tok" });
    const client = createX3dClient({
      baseUrl: "http://x3d.test",
      clientId: "id",
      clientSecret: "secret",
      fetch: fetch as typeof globalThis.fetch,
    });
    const error = await rejection(client.getToken());
    expect(error).toMatchObject({ kind: "response", code: 10000000 });
    expect(error.msg).toMatch(/^auth\/token answered without an envelope: /);
  });
});

describe("the token's age", () => {
  it("is renewed once exactly 23 hours old", async () => {
    let clock = 5_000;
    const { client, seen } = clientWith(() => json({ code: 200, msg: "success", data: { totalBalance: 1 } }), { now: () => clock });
    await client.balance();
    clock += 23 * 60 * 60 * 1000;
    await client.balance();
    expect(seen.filter((s) => s.url.endsWith("/auth/token"))).toHaveLength(2);
  });
});
