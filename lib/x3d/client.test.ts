import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createX3dClient, TOKEN_RENEW_AFTER_MS, X3dError, type X3dClientOptions } from "./client";
import { ERRORS } from "./errors";

// ------------------------------------------------------------ a fake x3d service on loopback

type Part = string | { filename: string; type: string; text: string };
interface Logged {
  method: string;
  path: string;
  query: Record<string, string>;
  auth: string;
  contentType: string;
  bodyLength: number;
  form?: [string, Part][];
}
/** A canned answer: JSON `body`, or `raw` text. */
type Canned = { status?: number; body?: unknown; raw?: string };

const ID = "client-1";
const SECRET = "s3crét:with-colon";

const fake = {
  tokenRequests: 0,
  issued: 0,
  valid: new Set<string>(),
  unauthorizedOnce: false,
  /** The 401 comes as `code: 401` in an HTTP 200 envelope instead of HTTP 401. */
  unauthorizedInEnvelope: false,
  alwaysUnauthorized: false,
  rejectCredentials: false,
  log: [] as Logged[],
  canned: new Map<string, Canned>(),
  /** Milliseconds to wait before answering a request for this task_id. */
  slow: new Map<string, number>(),
  reset() {
    Object.assign(this, {
      tokenRequests: 0,
      issued: 0,
      unauthorizedOnce: false,
      unauthorizedInEnvelope: false,
      alwaysUnauthorized: false,
      rejectCredentials: false,
      log: [],
    });
    [this.valid, this.canned, this.slow].forEach((m) => m.clear());
  },
  /** Every token issued so far stops working. */
  expireTokens() {
    this.valid.clear();
  },
  requests(path: string) {
    return this.log.filter((r) => r.path === path);
  },
};

const ok = (data: unknown, extra: object = {}) => ({ code: 200, data, msg: "success", ...extra });

function defaultAnswer(path: string, taskId: string): unknown {
  if (path === "balance") return ok({ totalBalance: 12.5 });
  if (path === "split/create-task") return ok({ task_id: "split_1", state: "queueing" });
  if (path.endsWith("create-task") || path === "submit-task") return ok({ task_id: `${path.split("/")[0]}_1` });
  return ok({ task_id: taskId, state: "success", id: `${taskId}_0`, cover_url: "http://files/c.webp?t=1", url: "http://files/r.glb?t=1" });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const path = url.pathname.replace(/^\/open-api\/v1\//, "");
  const entry: Logged = {
    method: req.method ?? "",
    path,
    query: Object.fromEntries(url.searchParams),
    auth: req.headers.authorization ?? "",
    contentType: req.headers["content-type"] ?? "",
    bodyLength: body.length,
  };
  fake.log.push(entry);
  const send = (status: number, value: unknown) =>
    void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
  if (entry.contentType.startsWith("multipart/form-data")) {
    const form = await new Request(url, {
      method: "POST",
      headers: { "content-type": entry.contentType },
      body: new Uint8Array(body),
    }).formData();
    entry.form = [];
    for (const [name, value] of form) {
      entry.form.push([name, typeof value === "string" ? value : { filename: value.name, type: value.type, text: await value.text() }]);
    }
  }
  if (path === "auth/token") {
    fake.tokenRequests++;
    await new Promise((r) => setTimeout(r, 25));
    const expected = `Basic ${Buffer.from(`${ID}:${SECRET}`, "utf8").toString("base64")}`;
    if (fake.rejectCredentials || entry.auth !== expected) {
      return send(200, { code: 40010000, data: {}, msg: "client credentials are invalid", message: "client credentials are invalid" });
    }
    const token = `tok-${++fake.issued}`;
    fake.valid.add(token);
    return send(200, ok({ accessToken: token, tokenType: "Bearer", nonce: `n${fake.issued}` }, { message: "success" }));
  }
  await new Promise((r) => setTimeout(r, fake.slow.get(entry.query.task_id ?? "") ?? 0));
  const token = entry.auth.split(" ")[1] ?? "";
  if (fake.alwaysUnauthorized || fake.unauthorizedOnce || !fake.valid.has(token)) {
    fake.unauthorizedOnce = false;
    return send(fake.unauthorizedInEnvelope ? 200 : 401, { code: 401, msg: "Unauthorized", data: {} });
  }
  const canned = fake.canned.get(path);
  if (canned?.raw !== undefined) return void res.writeHead(canned.status ?? 200, { "content-type": "text/html" }).end(canned.raw);
  send(canned?.status ?? 200, canned ? canned.body : defaultAnswer(path, entry.query.task_id ?? ""));
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    handle(req, res, Buffer.concat(chunks)).catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
});
let baseUrl = "";

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => fake.reset());

const client = (extra: Partial<X3dClientOptions> = {}) => createX3dClient({ baseUrl, clientId: ID, clientSecret: SECRET, ...extra });

/** The X3dError a promise rejects with (fails the test if it resolves or throws something else). */
async function rejection(promise: Promise<unknown>): Promise<X3dError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(X3dError);
  return error as X3dError;
}

const fileOf = (name: string, text: string, type?: string) => ({ name, type, data: new TextEncoder().encode(text) });

// ------------------------------------------------------------ tests

describe("token", () => {
  it("asks with Basic base64(id:secret), JSON content type and an empty body", async () => {
    await expect(client().getToken()).resolves.toEqual({ accessToken: "tok-1", tokenType: "Bearer", nonce: "n1" });
    const basic = `Basic ${Buffer.from("client-1:s3crét:with-colon", "utf8").toString("base64")}`;
    expect(fake.requests("auth/token")).toMatchObject([{ method: "POST", auth: basic, contentType: "application/json", bodyLength: 0 }]);
  });

  it("shares one token request among concurrent calls", async () => {
    const c = client();
    const results = await Promise.all(Array.from({ length: 8 }, () => c.balance()));
    expect(results).toEqual(Array.from({ length: 8 }, () => ({ totalBalance: 12.5 })));
    expect(fake.tokenRequests).toBe(1);
    expect(fake.requests("balance").map((r) => r.auth)).toEqual(Array.from({ length: 8 }, () => "Bearer tok-1"));
    await c.queryTask("t1");
    expect(fake.tokenRequests).toBe(1);
  });

  it.each([
    ["HTTP 401", false],
    ["envelope code 401 with HTTP 200", true],
  ])("renews once on %s and retries the call", async (_, inEnvelope) => {
    const c = client();
    await c.getToken();
    Object.assign(fake, { unauthorizedOnce: true, unauthorizedInEnvelope: inEnvelope });
    await expect(c.querySplitTask("split_9")).resolves.toMatchObject({ task_id: "split_9", state: "success" });
    expect(fake.tokenRequests).toBe(2);
    expect(fake.requests("split/query-task").map((r) => r.auth)).toEqual(["Token tok-1", "Token tok-2"]);
  });

  it("shares one renewal when concurrent calls all meet a 401", async () => {
    const c = client();
    await c.getToken();
    fake.expireTokens();
    await Promise.all(Array.from({ length: 5 }, (_, i) => c.queryDepthTask(`d${i}`)));
    expect(fake.tokenRequests).toBe(2);
    expect(fake.requests("depth/query-task").filter((r) => r.auth === "Bearer tok-2")).toHaveLength(5);
  });

  it("uses a token another call renewed meanwhile instead of renewing again", async () => {
    const c = client();
    await c.getToken();
    fake.expireTokens();
    fake.slow.set("slow", 300);
    const slow = c.queryTask("slow");
    await expect(c.queryTask("fast")).resolves.toMatchObject({ task_id: "fast" });
    await expect(slow).resolves.toMatchObject({ task_id: "slow" });
    expect(fake.tokenRequests).toBe(2);
    const seen = fake.requests("query-task").map((r) => `${r.query.task_id} ${r.auth}`);
    expect(seen.sort()).toEqual(["fast Bearer tok-1", "fast Bearer tok-2", "slow Bearer tok-1", "slow Bearer tok-2"]);
  });

  it("surfaces a second 401 as X3dError 401 without looping", async () => {
    const c = client();
    fake.alwaysUnauthorized = true;
    expect(await rejection(c.balance())).toMatchObject({
      code: 401,
      msg: "Unauthorized",
      httpStatus: 401,
      kind: "service",
      userMessage: ERRORS[401].user,
    });
    expect(fake.tokenRequests).toBe(2);
    expect(fake.requests("balance")).toHaveLength(2);
  });

  it("renews a token older than 23 hours before using it", async () => {
    let clock = 1_000_000;
    const c = client({ now: () => clock });
    await c.balance();
    clock += TOKEN_RENEW_AFTER_MS - 1;
    await c.balance();
    expect(fake.tokenRequests).toBe(1);
    clock += 2;
    await c.balance();
    expect(fake.tokenRequests).toBe(2);
    expect(fake.requests("balance").map((r) => r.auth)).toEqual(["Bearer tok-1", "Bearer tok-1", "Bearer tok-2"]);
    expect(TOKEN_RENEW_AFTER_MS).toBe(23 * 3600 * 1000);
  });

  it("throws 40010000 sent with HTTP 200 with the catalogue's message, and does not cache the failure", async () => {
    const c = client();
    fake.rejectCredentials = true;
    const expected = {
      code: 40010000,
      msg: "client credentials are invalid",
      httpStatus: 200,
      kind: "service",
      userMessage: ERRORS[40010000].user,
    };
    expect(await rejection(c.balance())).toMatchObject(expected);
    expect(fake.requests("balance")).toHaveLength(0);
    fake.rejectCredentials = false;
    await expect(c.balance()).resolves.toEqual({ totalBalance: 12.5 });
    expect(fake.tokenRequests).toBe(2);
  });
});

describe("authorization schemes", () => {
  it("uses Token for split query and segmentation, Bearer for the rest", async () => {
    const c = client();
    const mesh = { mesh: fileOf("m.glb", "glTF") };
    await c.submitTask({ images: fileOf("a.png", "png") });
    await c.queryTask("t1");
    await c.balance();
    await c.createSplitTask(mesh);
    await c.querySplitTask("s1");
    await c.createDepthTask({ image_url: "https://cdn.example/a.png", format: 2 });
    await c.queryDepthTask("d1");
    await c.createSegmentationTask(mesh);
    await c.querySegmentationTask("segmentation_20250101_ab");
    const schemes = Object.fromEntries(fake.log.filter((r) => r.path !== "auth/token").map((r) => [r.path, r.auth.split(" ")[0]]));
    const bearer = ["submit-task", "query-task", "balance", "split/create-task", "depth/create-task", "depth/query-task"];
    const token = ["split/query-task", "segmentation/create-task", "segmentation/query-task"];
    expect(schemes).toEqual(Object.fromEntries([...bearer.map((p) => [p, "Bearer"]), ...token.map((p) => [p, "Token"])]));
    expect(fake.requests("segmentation/query-task")[0]?.query).toEqual({ task_id: "segmentation_20250101_ab" });
    expect(fake.log.filter((r) => r.path !== "auth/token").every((r) => r.auth.endsWith(" tok-1"))).toBe(true);
  });
});

describe("multipart bodies", () => {
  it("sends submit-task options and ordered views as named fields and files", async () => {
    const stream = () => new Blob(["left-bytes"]).stream();
    const views = [fileOf("front.png", "front-bytes", "image/png"), { name: "left.webp", type: "image/webp", data: stream }];
    const options = {
      model: "x3dv2.1",
      resolution: "1536pro",
      multi_images_bit: "1010",
      pbr: 1,
      shading: 0.1 + 0.2,
      face: 500_000,
      format: 2,
    } as const;
    const created = await client().submitTask({ ...options, multi_images: views, callback_url: "http://localhost:3000/hook" });
    expect(created).toEqual({ task_id: "submit-task_1" });
    const form = fake.requests("submit-task")[0]?.form;
    expect(form).toEqual([
      ["request_type", "3"],
      ["model", "x3dv2.1"],
      ["multi_images", { filename: "front.png", type: "image/png", text: "front-bytes" }],
      ["multi_images", { filename: "left.webp", type: "image/webp", text: "left-bytes" }],
      ["multi_images_bit", "1010"],
      ["resolution", "1536pro"],
      ["pbr", "1"],
      ["shading", "0.3"],
      ["face", "500000"],
      ["format", "2"],
      ["callback_url", "http://localhost:3000/hook"],
    ]);
  });

  it("drops pbr and shading for models without them, and sends the texture mesh for request_type 2", async () => {
    await client().submitTask({
      request_type: 2,
      model: "x3dv1.5",
      images: fileOf("a.jpg", "jpg"),
      mesh: fileOf("m.glb", "glb"),
      pbr: 1,
      shading: 0.5,
    });
    const names = fake.requests("submit-task")[0]?.form?.map(([n]) => n);
    expect(names).toEqual(["request_type", "model", "images", "mesh"]);
  });

  it("sends split, depth and segmentation fields with their defaults and without inapplicable ones", async () => {
    const c = client();
    await expect(c.createSplitTask({ mesh_url: "https://cdn.example/m.obj", model: "general", part: "b" })).resolves.toEqual({
      task_id: "split_1",
      state: "queueing",
    });
    await c.createSplitTask({ mesh: fileOf("m.stl", "solid"), joint: "none" });
    await c.createDepthTask({
      image: { name: "d.png", data: new Blob(["img"], { type: "image/png" }) },
      rmbg: 0,
      thickness_base: 2,
      degree_rmbg: 0.5,
      format: 6,
    });
    await c.createSegmentationTask({ mesh: fileOf("m.glb", "glb"), seg_level: "high", format: 5 });
    const forms = fake.log.filter((r) => r.form).map((r) => r.form);
    expect(forms).toEqual([
      [
        ["mesh_url", "https://cdn.example/m.obj"],
        ["model", "general"],
        ["level", "medium"],
      ],
      [
        ["mesh", { filename: "m.stl", type: "application/octet-stream", text: "solid" }],
        ["model", "character"],
        ["part", "a"],
        ["joint", "none"],
      ],
      [
        ["image", { filename: "d.png", type: "image/png", text: "img" }],
        ["model_type", "pro"],
        ["rmbg", "0"],
        ["thickness_base", "2.0"],
        ["format", "6"],
      ],
      [
        ["mesh", { filename: "m.glb", type: "application/octet-stream", text: "glb" }],
        ["seg_level", "high"],
        ["format", "5"],
      ],
    ]);
  });
});

describe("errors", () => {
  it("rejects invalid input before any request, with the field's catalogue code", async () => {
    const c = client();
    const texture = c.submitTask({ request_type: 2, model: "x3dv2.0", images: fileOf("a.png", "png"), mesh_url: "https://x/m.glb" });
    expect(await rejection(texture)).toMatchObject({ code: 10031017, kind: "input", userMessage: ERRORS[10031017].user });
    expect((await rejection(c.createDepthTask({ image_url: "https://x/a.png" } as never))).code).toBe(10033015);
    expect(await rejection(c.queryTask(" "))).toMatchObject({ code: 10030009, kind: "input" });
    expect(fake.log).toHaveLength(0);
  });

  it("throws service errors with code, msg, HTTP status and user message", async () => {
    fake.canned.set("submit-task", { body: { code: 30010000, data: {}, msg: "balance is not enough" } });
    const error = await rejection(client().submitTask({ images: fileOf("a.png", "png") }));
    expect(error).toMatchObject({
      code: 30010000,
      msg: "balance is not enough",
      httpStatus: 200,
      kind: "service",
      userMessage: ERRORS[30010000].user,
    });
  });

  it.each([
    ["a wrong type", { code: 200, data: { totalBalance: "lots" }, msg: "success" }],
    ["a string code", { code: "200", data: { totalBalance: 1 }, msg: "success" }],
    ["no msg", { code: 200, data: { totalBalance: 1 } }],
  ])("throws when a success answer fails its schema (%s)", async (_, body) => {
    fake.canned.set("balance", { body });
    const error = await rejection(client().balance());
    expect(error).toMatchObject({ code: 10000000, kind: "response", httpStatus: 200 });
    expect(error.issues?.length).toBeGreaterThan(0);
  });

  it("throws on a non-JSON answer", async () => {
    fake.canned.set("balance", { status: 502, raw: "<html>Bad Gateway</html>" });
    const error = await rejection(client().balance());
    expect(error).toMatchObject({ code: 10000000, kind: "response", httpStatus: 502 });
    expect(error.msg).toContain("Bad Gateway");
  });

  it("throws code 10000000 on a network failure", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const error = await rejection(client({ baseUrl: `http://127.0.0.1:${port}` }).getToken());
    expect(error).toMatchObject({ code: 10000000, kind: "network", httpStatus: undefined });
    expect(error.userMessage).toBe(ERRORS[10000000].user);
  });
});
