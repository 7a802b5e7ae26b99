// Fuzz of the Open API contract (issue 10): fast-check sends random and malformed multipart,
// JSON and urlencoded bodies, headers, ids and methods to the ten endpoints (and the signed
// file route). Every answer must be the envelope with a code the service documents, never
// a 5xx; no refused request may move credit, leave a task folder or leave a staged upload.
//
// Accepted requests are expected too (valid-looking forms are often valid): every task costs
// 1 credit here, so a batch's balance must fall by exactly the number it accepted, and a
// blocker task holds the client's one processing slot so that nothing accepted ever runs
// (no refund can blur the count, no generation eats the CPU). One price, v3.0 2048master,
// is above the balance: those forms pass validation and are refused by the charge, after
// their files were moved into a task folder, which must then be gone.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_COSTS } from "@/lib/x3d/costs";
import { ERRORS } from "@/lib/x3d/errors";
import { MODEL_INFO, MODELS, RESOLUTIONS, SEG_LEVELS, SPLIT_JOINTS, SPLIT_LEVELS, SPLIT_PARTS } from "@/lib/x3d/options";
import { basic, fixture } from "../harness/api";
import { CLIENT_ID, CLIENT_SECRET, startServer, usingPostgres, type TestServer } from "../harness/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Fixed so a failure can be replayed; X3D_FUZZ_SEED picks another, X3D_FUZZ_SCALE runs more cases. */
const SEED = Number(process.env.X3D_FUZZ_SEED ?? 20261124);
const SCALE = Number(process.env.X3D_FUZZ_SCALE ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

/** The answer to a method an endpoint does not take (README's table). */
const METHOD_NOT_ALLOWED = 10030014;
const START_BALANCE = 1_000_000;
/** Above the balance: a valid 2048master form is refused by the charge itself (30010000). */
const UNAFFORDABLE = 10_000_000;

// ---------------------------------------------------------------------------------------------
// The documented codes: the catalogue the service answers from must be exactly open-api.md
// section 7 plus the README's table of added codes, message for message.

interface DocRow {
  code: number;
  msg: string;
  appliesTo: string;
}

function tableRows(file: string, heading: string): DocRow[] {
  const text = fs.readFileSync(file, "utf8");
  const start = text.indexOf(heading);
  if (start < 0) throw new Error(`${file} has no "${heading}"`);
  const rest = text.slice(start + heading.length);
  const end = rest.search(/\n#{2,3} /);
  return (end < 0 ? rest : rest.slice(0, end))
    .split("\n")
    .filter((line) => /^\|\s*\d+\s*\|/.test(line))
    .map((line) => {
      const cells = line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim());
      return { code: Number(cells[0]), msg: cells[1] ?? "", appliesTo: cells[2] ?? "" };
    });
}

const SPEC_ROWS = tableRows(path.join(ROOT, "docs/contract/open-api.md"), "## 7. Errors");
const README_ROWS = tableRows(path.join(ROOT, "docs/contract.md"), "### Error codes added for what the spec leaves without one");
const DOC_ROWS = [...SPEC_ROWS, ...README_ROWS];
const DOCUMENTED = new Set(DOC_ROWS.map((r) => r.code));
const catalogue = ERRORS as Record<number, { msg: string; http: number }>;

// ---------------------------------------------------------------------------------------------
// The endpoints, and which documented codes each may answer (from the tables' "applies to").

type Kind = "token" | "balance" | "query" | "create" | "files";
interface Endpoint {
  name: string;
  method: "GET" | "POST";
  kind: Kind;
  /** Authorization schemes taken (lib/engine/handlers/common.ts). */
  schemes: readonly string[];
  /** The code for a body that is not multipart/form-data (create endpoints). */
  notMultipart?: number;
}

const BEARER = ["Bearer"];
const TOKEN_OR_BEARER = ["Token", "Bearer"];
const ENDPOINTS: Endpoint[] = [
  { name: "auth/token", method: "POST", kind: "token", schemes: [] },
  { name: "balance", method: "GET", kind: "balance", schemes: BEARER },
  // No form, so neither images nor multi_images (lib/engine/handlers/create.ts).
  { name: "submit-task", method: "POST", kind: "create", schemes: BEARER, notMultipart: 10031008 },
  { name: "query-task", method: "GET", kind: "query", schemes: BEARER },
  { name: "split/create-task", method: "POST", kind: "create", schemes: BEARER, notMultipart: 10030011 },
  { name: "split/query-task", method: "GET", kind: "query", schemes: TOKEN_OR_BEARER },
  { name: "depth/create-task", method: "POST", kind: "create", schemes: BEARER, notMultipart: 10030011 },
  { name: "depth/query-task", method: "GET", kind: "query", schemes: BEARER },
  { name: "segmentation/create-task", method: "POST", kind: "create", schemes: TOKEN_OR_BEARER, notMultipart: 10030011 },
  { name: "segmentation/query-task", method: "GET", kind: "query", schemes: TOKEN_OR_BEARER },
];
const FILES: Endpoint = { name: "files", method: "GET", kind: "files", schemes: [] };
const endpoint = (name: string): Endpoint => ENDPOINTS.find((e) => e.name === name)!;
const CREATES = ENDPOINTS.filter((e) => e.kind === "create").map((e) => e.name);
const QUERIES = ENDPOINTS.filter((e) => e.kind === "query").map((e) => e.name);
const ALL = ENDPOINTS.map((e) => e.name);

/** The endpoints a table's "applies to" cell names; an unknown phrase fails the test. */
function appliesTo(cell: string): string[] {
  const text = cell.toLowerCase().split(":")[0]!.trim();
  const phrases: Record<string, string[]> = {
    all: ALL,
    "every endpoint": ALL,
    "all create endpoints": CREATES,
    "every create endpoint": CREATES,
    "all query endpoints": QUERIES,
    "image-to-3d query": ["query-task"],
    "split, depth and segmentation create and query": ["split", "depth", "segmentation"].flatMap((k) => [
      `${k}/create-task`,
      `${k}/query-task`,
    ]),
  };
  if (phrases[text]) return phrases[text];
  const names: Record<string, string> = {
    token: "auth/token",
    balance: "balance",
    "submit-task": "submit-task",
    split: "split/create-task",
    depth: "depth/create-task",
    segmentation: "segmentation/create-task",
  };
  return text.split(/,\s*|\s+and\s+/).map((word) => {
    const name = names[word];
    if (!name) throw new Error(`"applies to" cell not understood: "${cell}"`);
    return name;
  });
}

/**
 * Codes each endpoint may answer. Two are wider than the spec's table shows, for documented
 * reasons: 401 comes from every endpoint that takes a token (section 5 lists them), and
 * 30010000 from every create, since split, depth and segmentation cost credits too (addendum).
 */
const ALLOWED = new Map<string, Set<number>>(ALL.map((name) => [name, new Set<number>()]));
for (const row of DOC_ROWS) for (const name of appliesTo(row.appliesTo)) ALLOWED.get(name)!.add(row.code);
for (const name of ALL) if (name !== "auth/token") ALLOWED.get(name)!.add(401);
for (const name of CREATES) ALLOWED.get(name)!.add(30010000);

describe("the code catalogue is the documented one", () => {
  it("lib/x3d/errors.ts holds exactly open-api.md section 7 and the README's added codes, with their messages", () => {
    expect(SPEC_ROWS.length).toBeGreaterThan(20);
    expect(README_ROWS.length).toBeGreaterThan(30);
    for (const row of SPEC_ROWS) expect(catalogue[row.code]?.msg, `spec code ${row.code}`).toBe(row.msg);
    for (const row of README_ROWS) {
      const entry = catalogue[row.code];
      expect(entry, `README code ${row.code} is not in the catalogue`).toBeDefined();
      // The README may add a note in parentheses: "mesh file size exceeds limit (200 MB)".
      expect(row.msg.startsWith(entry!.msg), `README msg of ${row.code}: "${row.msg}" vs "${entry!.msg}"`).toBe(true);
      expect(
        SPEC_ROWS.some((s) => s.code === row.code),
        `${row.code} is in the spec and the README`,
      ).toBe(false);
    }
    const catalogued = Object.keys(ERRORS)
      .map(Number)
      .sort((a, b) => a - b);
    expect(catalogued).toEqual([...DOCUMENTED].sort((a, b) => a - b));
  });
  it("every endpoint may answer success, and the oracle's codes are documented for it", () => {
    for (const name of ALL) expect(ALLOWED.get(name)!.has(200), name).toBe(true);
    expect(ALLOWED.get("auth/token")).toContain(40010000);
    for (const name of CREATES) {
      expect(ALLOWED.get(name)).toContain(endpoint(name).notMultipart);
      expect(ALLOWED.get(name)).not.toContain(10030009);
    }
    for (const name of QUERIES) expect(ALLOWED.get(name)).toContain(10030010);
  });
});

// ---------------------------------------------------------------------------------------------
// The server, raw HTTP, and the checks made on every answer.

let server: TestServer;
let token = "";
let blocker = "";
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

const stats = {
  cases: 0,
  endpoints: new Set<string>(),
  accepted: [] as { endpoint: string; taskId: string }[],
  codes: new Map<string, Map<number, number>>(),
};

interface Wire {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Sent with Transfer-Encoding: chunked instead of a Content-Length. */
  chunked?: boolean;
}
interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function send(wire: Wire): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...wire.headers };
    if (wire.body && !wire.chunked) headers["Content-Length"] = String(wire.body.length);
    let req: http.ClientRequest;
    try {
      // A redirect of a long path carries it twice (Location, Refresh): past Node's 16 kB default.
      req = http.request({
        host: "127.0.0.1",
        port: server.port,
        method: wire.method,
        path: wire.path,
        headers,
        agent,
        timeout: 30_000,
        maxHeaderSize: 128 * 1024,
      });
    } catch (error) {
      return reject(new Error(`the fuzz built a request node cannot send: ${String(error)}`));
    }
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 30 s")));
    // An answer given before the whole body was read may end the upload: that is fine.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (wire.body && wire.chunked) {
      const third = Math.ceil(wire.body.length / 3);
      for (let at = 0; at < wire.body.length; at += third) req.write(wire.body.subarray(at, at + third));
    } else if (wire.body) {
      req.write(wire.body);
    }
    req.end();
  });
}

interface Envelope<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
  message?: string;
}

/** A test case: where, what is sent, and what must come back when that is known. */
interface Case {
  ep: Endpoint;
  wire: Wire;
  /** The code the answer must have, when the case determines it. */
  expected?: number;
  /** What the case is, for the report of a counterexample. */
  note: string;
}

function makeCase(ep: Endpoint, wire: Wire, note: string, expected?: number): Case {
  const c: Case = { ep, wire, note, expected };
  const body = wire.body ? ` body[${wire.body.length}] ${JSON.stringify(wire.body.subarray(0, 400).toString("latin1"))}` : "";
  Object.defineProperty(c, fc.toStringMethod, {
    value: () =>
      `${note}: ${wire.method} ${wire.path.slice(0, 300)} ${JSON.stringify(wire.headers).slice(0, 600)}${wire.chunked ? " chunked" : ""}${body}`,
  });
  return c;
}

function describeCase(c: Case, answer: Answer): string {
  const str = (c as unknown as Record<symbol, () => string>)[fc.toStringMethod]!();
  return `${str}\n  -> HTTP ${answer.status} ${answer.body.subarray(0, 500).toString("utf8")}`;
}

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v).sort().join(",");
  return (
    (keys === "code,data,msg" || keys === "code,data,message,msg") &&
    Number.isInteger(v.code) &&
    typeof v.msg === "string" &&
    typeof v.data === "object" &&
    v.data !== null &&
    !Array.isArray(v.data) &&
    (v.message === undefined || v.message === v.msg)
  );
}

const tasksDir = () => path.join(server.dataDir, "engine", "tasks");
const stagingDir = () => path.join(server.dataDir, "engine", "staging");
const list = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

/** Sends one case and checks its answer against the contract; returns the envelope (none for HEAD/OPTIONS). */
async function run(c: Case): Promise<Envelope | undefined> {
  const answer = await send(c.wire);
  stats.cases++;
  stats.endpoints.add(c.ep.name);
  const fail = (why: string): never => {
    throw new Error(`${why}\n  ${describeCase(c, answer)}`);
  };
  if (answer.status >= 500) fail(`HTTP ${answer.status}`);
  const envelope = checkEnvelope(c, answer, fail);
  // What a refusal must not leave behind: a staged upload, or a task folder of no accepted task.
  const staged = list(stagingDir());
  if (staged.length > 0) fail(`engine/staging holds ${staged.join(", ")}`);
  const known = new Set([blocker, ...stats.accepted.map((a) => a.taskId)]);
  const stray = list(tasksDir()).filter((d) => !known.has(d));
  if (stray.length > 0) fail(`engine/tasks gained ${stray.join(", ")}`);
  return envelope;
}

function checkEnvelope(c: Case, answer: Answer, fail: (why: string) => never): Envelope | undefined {
  if (c.ep.kind === "files") {
    // Plain-text answers by design; nothing may be served without a valid signature.
    if (answer.status === 200 || answer.status === 206) fail("a file was served for a forged link");
    return undefined;
  }
  if (c.wire.method === "HEAD" || c.wire.method === "OPTIONS") {
    if (answer.body.length > 0 && c.wire.method === "HEAD") fail("HEAD answered with a body");
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body.toString("utf8"));
  } catch {
    return fail("the answer is not JSON");
  }
  if (!isEnvelope(parsed)) return fail("the answer is not the envelope {code: integer, msg: string, data: object}");
  const { code, msg, data } = parsed;
  if (!DOCUMENTED.has(code)) fail(`code ${code} is not documented`);
  if (!ALLOWED.get(c.ep.name)!.has(code)) fail(`code ${code} is not documented for ${c.ep.name}`);
  if (!String(answer.headers["content-type"]).startsWith("application/json")) fail("Content-Type is not application/json");
  if (answer.status !== catalogue[code]!.http) fail(`HTTP ${answer.status}, the catalogue gives ${catalogue[code]!.http} for ${code}`);
  if (code === 200) {
    if (msg !== "success") fail('a success whose msg is not "success"');
  } else {
    if (Object.keys(data).length > 0) fail("an error with a non-empty data");
    if (!msg.startsWith(catalogue[code]!.msg)) fail(`msg does not start with the catalogue's "${catalogue[code]!.msg}"`);
  }
  if (c.expected !== undefined && code !== c.expected) fail(`expected code ${c.expected}`);

  const seen = stats.codes.get(c.ep.name) ?? new Map<number, number>();
  seen.set(code, (seen.get(code) ?? 0) + 1);
  stats.codes.set(c.ep.name, seen);
  if (c.ep.kind === "create" && code === 200) {
    const taskId = data.task_id;
    if (typeof taskId !== "string" || !/^[a-z0-9]+_\d{8}_[0-9a-f]{24}$/.test(taskId)) return fail("an accepted task without a task_id");
    stats.accepted.push({ endpoint: c.ep.name, taskId });
  }
  return parsed;
}

async function balance(): Promise<number> {
  const answer = await send({ method: "GET", path: "/open-api/v1/balance", headers: { Authorization: `Bearer ${token}` } });
  const body = JSON.parse(answer.body.toString("utf8")) as Envelope;
  expect(body.code).toBe(200);
  return body.data.totalBalance as number;
}

/**
 * One batch: `numRuns` cases of `arb`, each checked as it comes back; then the balance must
 * have fallen by exactly one credit per accepted task, none for a refusal.
 */
async function batch(seedOffset: number, numRuns: number, arb: fc.Arbitrary<Case>): Promise<void> {
  const before = await balance();
  const acceptedBefore = stats.accepted.length;
  await fc.assert(
    fc.asyncProperty(arb, async (c) => {
      await run(c);
    }),
    // No shrinking: every request may add an accepted task, and the failure report already
    // shows the whole request and answer.
    { seed: SEED + seedOffset, numRuns, endOnFailure: true },
  );
  const accepted = stats.accepted.length - acceptedBefore;
  expect(before - (await balance()), `credits moved in a batch that accepted ${accepted} task(s)`).toBe(accepted);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries.

const bytes = (s: string) => Buffer.from(s, "latin1");
/** Every byte percent-encoded except unreserved characters (lone surrogates become U+FFFD). */
const pct = (s: string) =>
  Array.from(Buffer.from(s, "utf8"), (b) => {
    const ch = String.fromCharCode(b);
    return /[A-Za-z0-9_.~-]/.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }).join("");
const b64 = (s: string | Uint8Array) => Buffer.from(typeof s === "string" ? Buffer.from(s, "utf8") : s).toString("base64");
const b64url = (s: string | Uint8Array) => Buffer.from(typeof s === "string" ? Buffer.from(s, "utf8") : s).toString("base64url");

/** Bytes node lets into a header value: tab, printable ASCII and 0x80..0xff. */
const headerChar = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
  .map((c) => String.fromCharCode(c));
const headerText = (maxLength: number) => fc.string({ unit: headerChar, maxLength });
/** Anything, NUL, controls, unicode and lone surrogates included. */
const anyText = (maxLength: number) =>
  fc.oneof(fc.string({ unit: "binary", maxLength }), fc.string({ unit: "grapheme", maxLength }), fc.string({ maxLength }));
const hex = (length: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: length, maxLength: length });

/** Extra headers real and hostile clients send (the addendum: any Host, Appid or not). */
const extraHeaders = fc.record(
  {
    Host: fc.constantFrom("api.example.com", "a b", "[::1", "x:99999", "%zz", "@evil", "localhost:1"),
    Appid: headerText(40),
    "Accept-Language": fc.constantFrom("en", "zh-CN,zh;q=0.9", "*"),
    "X-Forwarded-For": fc.constantFrom("1.2.3.4", "::1, 10.0.0.1", "garbage"),
    Expect: fc.constant("100-continue"),
  },
  { requiredKeys: [] },
);

interface Auth {
  header?: string;
  /** The token is genuine and the scheme word is one of these (compared case-insensitively). */
  validFor: readonly string[];
}

/** Authorization headers: the real token under several scheme spellings, and every kind of wrong. */
function authArb(invalidWeight = 6): fc.Arbitrary<Auth> {
  const valid = (scheme: string, sep = " ", tail = ""): Auth => ({ header: `${scheme}${sep}${token}${tail}`, validFor: [scheme] });
  const invalid = (header?: string): Auth => ({ header, validFor: [] });
  const tampered = fc.tuple(fc.nat(), fc.constantFrom(..."ABCxyz019-_.=+/")).map(([i, ch]) => {
    const at = i % token.length;
    return token[at] === ch
      ? `${token.slice(0, at)}${ch === "A" ? "B" : "A"}${token.slice(at + 1)}`
      : `${token.slice(0, at)}${ch}${token.slice(at + 1)}`;
  });
  const forgedClaims = fc
    .record(
      { c: fc.oneof(fc.constant(CLIENT_ID), anyText(20)), e: fc.oneof(fc.constant(9e15), fc.integer()), s: fc.oneof(hex(16), anyText(8)) },
      { requiredKeys: [] },
    )
    .chain((claims) => fc.uint8Array({ minLength: 0, maxLength: 40 }).map((sig) => `x3d.${b64url(JSON.stringify(claims))}.${b64url(sig)}`));
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(valid("Bearer")) },
    { weight: 2, arbitrary: fc.constantFrom(valid("bearer"), valid("BEARER", "  "), valid("Bearer", "\t"), valid("Bearer", " ", "  ")) },
    { weight: 2, arbitrary: fc.constantFrom(valid("Token"), valid("token", "  ")) },
    {
      weight: invalidWeight,
      arbitrary: fc.oneof(
        fc.constant(invalid()),
        fc.constantFrom(invalid(""), invalid("Bearer"), invalid("Bearer "), invalid(token), invalid(basic()), invalid(`Basic ${token}`)),
        fc.constantFrom(
          invalid(`Bearer ${token}x`),
          invalid(`Bearer ${token} ${token}`),
          invalid(`Bearer ${token.replace("x3d.", "X3D.")}`),
          invalid(`Bearer ${token}.x3d`),
        ),
        fc.constantFrom(
          invalid(`Bearer ${token.slice(0, -1)}`),
          invalid(`Bearer ${token.split(".").slice(0, 2).join(".")}`),
          invalid(`Bearer ${token.split(".").reverse().join(".")}`),
        ),
        tampered.map((t) => invalid(`Bearer ${t}`)),
        forgedClaims.map((t) => invalid(`Bearer ${t}`)),
        headerText(200).map((t) => invalid(`Bearer ${t}`)),
        headerText(300).map((t) => invalid(t)),
        fc.tuple(fc.constantFrom("Bearer", "Token", "Basic", "Digest", "x3d"), headerText(100)).map(([s, t]) => invalid(`${s} ${t}`)),
      ),
    },
  );
}

function authHeaders(auth: Auth): Record<string, string> {
  return auth.header === undefined ? {} : { Authorization: auth.header };
}

/** Whether `auth` gets through `ep`'s gate. */
const admits = (ep: Endpoint, auth: Auth) => auth.validFor.some((s) => ep.schemes.some((t) => t.toLowerCase() === s.toLowerCase()));

// --- auth/token ---------------------------------------------------------------------------------

const jsonBody = fc.oneof(
  fc.constant(""),
  fc.constant("{}"),
  fc.json({ maxDepth: 3 }),
  fc.constant(JSON.stringify({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET })),
  headerText(200),
);

const contentTypes = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "application/x-www-form-urlencoded",
  "text/plain",
  "application/octet-stream",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=zz",
  "multipart/mixed; boundary=zz",
  "*/*",
  "garbage",
  "",
);

function tokenCases(): fc.Arbitrary<Case> {
  const ep = endpoint("auth/token");
  const good = (h: string) => ({ header: h, ok: true });
  const bad = (h?: string) => ({ header: h, ok: false });
  const header = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        good(basic()),
        good(`basic ${b64(`${CLIENT_ID}:${CLIENT_SECRET}`)}`),
        good(`Basic  ${b64(`${CLIENT_ID}:${CLIENT_SECRET}`)}`),
      ),
    },
    {
      weight: 10,
      arbitrary: fc.oneof(
        fc.constant(bad()),
        fc.constantFrom(
          bad(""),
          bad("Basic"),
          bad("Basic "),
          bad(`Bearer ${token}`),
          bad(basic(CLIENT_ID, `${CLIENT_SECRET}x`)),
          bad(basic(CLIENT_ID, "")),
          bad(basic("", CLIENT_SECRET)),
        ),
        fc.constantFrom(
          bad(`Basic ${b64(`${CLIENT_ID}${CLIENT_SECRET}`)}`),
          bad(`Basic ${b64(`${CLIENT_ID}\0:${CLIENT_SECRET}`)}`),
          bad(`Basic ${b64(`${CLIENT_ID}:${CLIENT_SECRET}`)}=x`),
        ),
        fc.tuple(anyText(40), anyText(40)).map(([id, secret]) => bad(`Basic ${b64(`${id}:${secret}`)}`)),
        fc.tuple(anyText(40), anyText(40)).map(([id, secret]) => bad(basic(id, secret))),
        fc.uint8Array({ maxLength: 80 }).map((raw) => bad(`Basic ${b64(raw)}`)),
        headerText(200).map((t) => bad(`Basic ${t}`)),
        headerText(200).map((t) => bad(t)),
      ),
    },
  );
  return fc
    .record({ header, body: fc.option(jsonBody), contentType: fc.option(contentTypes), extra: extraHeaders })
    .filter(({ header: h }) => !(h.ok === false && h.header !== undefined && isGenuineBasic(h.header)))
    .map(({ header: h, body, contentType, extra }) => {
      const headers: Record<string, string> = { ...extra, ...(h.header === undefined ? {} : { Authorization: h.header }) };
      if (contentType !== null) headers["Content-Type"] = contentType;
      return makeCase(
        ep,
        { method: "POST", path: "/open-api/v1/auth/token", headers, body: body === null ? undefined : Buffer.from(body, "utf8") },
        "token",
        h.ok ? 200 : 40010000,
      );
    });
}

/** A random Basic header that happens to carry the real pair (not expected, but then it is not "bad"). */
function isGenuineBasic(header: string): boolean {
  const m = /^Basic\s+(\S+)\s*$/i.exec(header);
  return !!m && Buffer.from(m[1]!, "base64").toString("utf8") === `${CLIENT_ID}:${CLIENT_SECRET}`;
}

// --- balance ------------------------------------------------------------------------------------

function balanceCases(): fc.Arbitrary<Case> {
  const ep = endpoint("balance");
  return fc
    .record({
      auth: authArb(),
      query: fc.option(anyText(60)),
      body: fc.option(jsonBody),
      contentType: fc.option(contentTypes),
      extra: extraHeaders,
    })
    .map(({ auth, query, body, contentType, extra }) => {
      const headers: Record<string, string> = { ...extra, ...authHeaders(auth) };
      if (contentType !== null) headers["Content-Type"] = contentType;
      const wire: Wire = {
        method: "GET",
        path: `/open-api/v1/balance${query === null ? "" : `?${pct(query)}`}`,
        headers,
        body: body ? Buffer.from(body, "utf8") : undefined,
      };
      return makeCase(ep, wire, "balance", admits(ep, auth) ? 200 : 401);
    });
}

// --- the four query endpoints -------------------------------------------------------------------

const PREFIXES = ["i3d", "split", "depth", "segmentation"];

interface TaskIdParam {
  /** The query string after `?`, or null for none. */
  query: string | null;
  /** The task_id the server will read (after decoding and trimming), when the case determines it. */
  id?: string;
}

function taskIdArb(): fc.Arbitrary<TaskIdParam> {
  const encoded = (raw: string): TaskIdParam => ({ query: `task_id=${pct(raw)}`, id: raw.trim() });
  const hostile = fc.constantFrom(
    "\0",
    "a\0b",
    "%00",
    "../../etc/passwd",
    "..\\..\\windows\\win.ini",
    "/etc/passwd",
    "split_20260101_../../../etc",
    "' or 1=1 --",
    "<script>alert(1)</script>",
    "\u202e\u0000\uffff",
    "😀",
    "null",
    "[]",
    " ",
    "\t\n",
  );
  return fc.oneof(
    {
      weight: 1,
      arbitrary: fc.constantFrom<TaskIdParam>(
        { query: null, id: "" },
        { query: "task_id=", id: "" },
        { query: "task_id=+++", id: "" },
        { query: "TASK_ID=abc", id: "" },
      ),
    },
    { weight: 3, arbitrary: hostile.map(encoded) },
    { weight: 3, arbitrary: anyText(64).map(encoded) },
    { weight: 1, arbitrary: fc.integer({ min: 4096, max: 10240 }).map((n) => encoded("a".repeat(n))) },
    // Kept under Node's 16 kB request head once percent-encoded (past it Node answers 431 itself).
    { weight: 1, arbitrary: fc.integer({ min: 500, max: 1400 }).map((n) => encoded("é\0".repeat(n))) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...PREFIXES), hex(24)).map(([p, h]) => encoded(`${p}_20261124_${h}`)) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        encoded(blocker),
        encoded(` ${blocker} `),
        encoded(blocker.toUpperCase()),
        encoded(`${blocker}/`),
        encoded(`${blocker}\0`),
      ),
    },
    {
      weight: 2,
      // Raw bytes above 0x7f are left out: that is not HTTP, and Node's parser answers 400 before the app.
      arbitrary: fc.constantFrom<TaskIdParam>(
        { query: "task_id=%" },
        { query: "task_id=%zz" },
        { query: "task_id=%E0%A4%A" },
        { query: "task_id=%ff%fe%00" },
        { query: "task_id=a%2f..%2f..%2fetc" },
        { query: "task_id=a&task_id=b" },
        { query: "task_id[]=a" },
        { query: ";task_id=a" },
        { query: "task_id" },
        { query: "&&&" },
        { query: "task_id=a#frag" },
      ),
    },
  );
}

function queryCases(): fc.Arbitrary<Case> {
  const eps = ENDPOINTS.filter((e) => e.kind === "query");
  return fc
    .record({ ep: fc.constantFrom(...eps), auth: authArb(), id: taskIdArb(), extra: extraHeaders })
    .map(({ ep, auth, id, extra }) => {
      let expected: number | undefined;
      if (!admits(ep, auth)) expected = 401;
      else if (id.id === "") expected = 10030009;
      else if (id.id !== undefined) expected = id.id === blocker && ep.name === "depth/query-task" ? 200 : 10030010;
      const wire: Wire = {
        method: "GET",
        path: `/open-api/v1/${ep.name}${id.query === null ? "" : `?${id.query}`}`,
        headers: { ...extra, ...authHeaders(auth) },
      };
      return makeCase(ep, wire, `query ${id.id === undefined ? "(raw)" : JSON.stringify(id.id.slice(0, 80))}`, expected);
    });
}

// --- multipart ----------------------------------------------------------------------------------

interface Part {
  name: string;
  /** A file part when set; filename="" is read as a text field (busboy, like a browser's empty file input). */
  filename?: string;
  /** filename*=UTF-8''… (RFC 5987) instead of filename="…". */
  extendedFilename?: boolean;
  type?: string;
  /** More header lines for the part. */
  headers?: string[];
  body: Buffer;
}

const text = (name: string, value: string): Part => ({ name, body: Buffer.from(value, "utf8") });
const file = (name: string, body: Buffer, filename = "upload.bin", type?: string): Part => ({ name, filename, type, body });
const quote = (s: string) => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\r|\n/g, " ");

function serialize(parts: Part[], boundary: string, eol = "\r\n"): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}${eol}Content-Disposition: form-data; name="${quote(p.name)}"`;
    if (p.filename !== undefined)
      head += p.extendedFilename ? `; filename*=UTF-8''${pct(p.filename)}` : `; filename="${quote(p.filename)}"`;
    head += eol;
    if (p.type !== undefined) head += `Content-Type: ${p.type.replace(/\r|\n/g, " ")}${eol}`;
    for (const line of p.headers ?? []) head += `${line}${eol}`;
    out.push(Buffer.from(`${head}${eol}`, "utf8"), p.body, Buffer.from(eol));
  }
  out.push(Buffer.from(`--${boundary}--${eol}`));
  return Buffer.concat(out);
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const tail = fc.uint8Array({ maxLength: 48 });
const imageBytes = fc.oneof(
  tail.map((t) => Buffer.from([...PNG, ...t])),
  tail.map((t) => Buffer.from([0xff, 0xd8, 0xff, ...t])),
  tail.map((t) => Buffer.concat([bytes("RIFF\x10\x00\x00\x00WEBP"), Buffer.from(t)])),
);
const binaryStl = () => {
  const b = Buffer.alloc(134);
  b.writeUInt32LE(1, 80);
  return b;
};
const meshBytes = fc.oneof(
  tail.map((t) => Buffer.concat([bytes("glTF\x02\x00\x00\x00"), Buffer.from(t)])),
  fc.constant(bytes("solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n")),
  fc.constant(bytes("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")),
  fc.constant(binaryStl()),
);
const junkBytes = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  fc.uint8Array({ maxLength: 300 }).map((u) => Buffer.from(u)),
  fc.constantFrom(bytes("GIF89a"), bytes("hello"), bytes("\0\0\0\0"), bytes("solid only"), bytes("glTF")),
);
const filenames = fc.oneof(
  fc.constantFrom(
    "a.png",
    "views.jpg",
    "m.glb",
    "m.stl",
    "m.obj",
    "",
    "../../etc/passwd",
    "..\\..\\x.png",
    "图像.webp",
    'a"b;c.png',
    "a\0b.png",
    "con.png",
    ".png",
  ),
  anyText(40),
  fc.integer({ min: 200, max: 2000 }).map((n) => `${"n".repeat(n)}.png`),
);
const partTypes = fc.option(
  fc.constantFrom(
    "image/jpeg",
    "image/png",
    "application/octet-stream",
    "model/gltf-binary",
    "text/plain; charset=utf-8",
    "multipart/mixed; boundary=inner",
    "garbage",
    "",
  ),
  { nil: undefined },
);

const hasControl = (s: string) => [...s].some((c) => c !== "\t" && (c < " " || c === "\x7f"));

/**
 * A file part with odd labels around `content`. Unless `anyName`, the filename is one a
 * parser must take: not empty (busboy, like browsers for an empty file input, reads a part
 * with filename="" as a text field) and, written raw, without control characters (not
 * allowed in a header; busboy refuses the part header).
 */
const filePart = (name: string, content: fc.Arbitrary<Buffer>, anyName = false) =>
  fc
    .record({ body: content, filename: filenames, type: partTypes, extendedFilename: fc.boolean() })
    .filter((p) => anyName || (p.filename !== "" && (p.extendedFilename || !hasControl(p.filename))))
    .map((p): Part => ({ name, ...p }));

const num = (min: number, max: number, digits = 0) =>
  fc.integer({ min: Math.round(min * 10 ** digits), max: Math.round(max * 10 ** digits) }).map((n) => (n / 10 ** digits).toFixed(digits));
const oddNumbers = fc.constantFrom(
  "",
  " ",
  "01",
  "+1",
  "-0",
  "1e0",
  "0x1",
  "NaN",
  "Infinity",
  "-1",
  "9007199254740993",
  "1_000",
  "１",
  "true",
  "null",
  "[1]",
  "1,5",
  ".",
  "-",
);

const urls = (exts: readonly string[]) =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .record({
          scheme: fc.constantFrom("http", "https", "HTTPS"),
          host: fc.constantFrom("example.com", "127.0.0.1", "[::1]", "localhost:8080", "xn--bcher-kva.example", "a.b"),
          name: fc.constantFrom("a", "dir/model", "%20x", "é"),
          ext: fc.constantFrom(...exts, ...exts.map((e) => e.toUpperCase()), "gif", "fbx", ""),
          query: fc.constantFrom("", "?x=1", "?a.glb", "#frag"),
        })
        .map(({ scheme, host, name, ext, query }) => `${scheme}://${host}/${name}${ext ? `.${ext}` : ""}${query}`),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "ftp://example.com/a.glb",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "http://",
        "https://",
        "http:/x.glb",
        "//example.com/a.glb",
        "example.com/a.glb",
        "http://exa mple.com/a.png",
        "http://a/\u0000.glb",
        "http://a/b\u0001.png",
        "https://example.com/\u00e9\u0000.stl",
        "data:image/png;base64,AAAA",
        "http://[::1/a.glb",
        `https://example.com/${"a".repeat(5000)}.glb`,
        "httpx://example.com/a.obj",
      ),
    },
    { weight: 1, arbitrary: anyText(60) },
  );

/** Values near each option's valid ones: the valid ones, the edges, and odd spellings. */
const nearValues: Record<string, fc.Arbitrary<string>> = {
  request_type: fc.oneof(fc.constantFrom("1", "2", "3", "3.0", "0", "4", "2.5"), oddNumbers),
  model: fc.oneof(fc.constantFrom(...MODELS, "x3dv3.1", "X3DV3.0", "x3dv1.5 ", "x3d", "scene-portrait"), oddNumbers),
  resolution: fc.oneof(fc.constantFrom(...RESOLUTIONS, "2048", "1536 pro", "4096quality"), oddNumbers),
  face: fc.oneof(
    fc.constantFrom("100000", "5000000", "99999", "5000001", "100000.0", "100000.5", "1e5", "2000000"),
    num(0, 6e6),
    oddNumbers,
  ),
  format: fc.oneof(num(0, 7), oddNumbers),
  pbr: fc.oneof(fc.constantFrom("0", "1", "2", "1.0"), oddNumbers),
  rmbg: fc.oneof(fc.constantFrom("0", "1", "2", "1.0"), oddNumbers),
  shading: fc.oneof(num(-0.1, 1.1, 1), num(0, 1, 2), fc.constantFrom(".5", "0.30000000000000004", "1.", "5e-1"), oddNumbers),
  multi_images_bit: fc.oneof(
    fc.constantFrom("1000", "1100", "1010", "1111", "0111", "10000", "100", "10a0", "１０００"),
    fc.string({ unit: fc.constantFrom("0", "1", "x", " "), maxLength: 6 }),
  ),
  mesh_url: urls(["glb", "stl", "obj"]),
  image_url: urls(["png", "jpg", "jpeg", "webp"]),
  callback_url: urls(["", "php"]),
  model_type: fc.constantFrom("base", "pro", "Pro", "ultra", ""),
  height_relief: fc.oneof(num(0, 51, 1), num(0, 1, 3), oddNumbers),
  degree_rmbg: fc.oneof(num(-0.01, 1.01, 2), num(0, 1, 3), oddNumbers),
  shape_base: fc.oneof(num(-1, 2), oddNumbers),
  thickness_base: fc.oneof(num(0, 21, 1), num(0, 1, 2), oddNumbers),
  width: fc.oneof(num(19, 601), fc.constantFrom("20", "600", "40.0", "40.5"), oddNumbers),
  sculpmode: fc.oneof(num(-1, 2), oddNumbers),
  response_format: fc.constantFrom("url", "URL", "b64_json", "", "base64"),
  part: fc.constantFrom(...Object.keys(SPLIT_PARTS), "g", "A", "", "ab"),
  joint: fc.constantFrom(...SPLIT_JOINTS, "glue", "Ball", ""),
  merge: fc.constantFrom("yes", "no", "Yes", "true", "1", ""),
  level: fc.constantFrom(...SPLIT_LEVELS, "extreme", "Low", ""),
  seg_level: fc.constantFrom(...SEG_LEVELS, "max", "MEDIUM", ""),
  split_model: fc.constantFrom("character", "general", "robot", "Character", ""),
};
const near = (field: string): fc.Arbitrary<string> => nearValues[field] ?? anyText(40);

/** A valid submit-task form: a model and what it allows, one image or views, a mesh for request_type 2. */
function validSubmit(): fc.Arbitrary<Part[]> {
  return fc.constantFrom(...MODELS).chain((model) => {
    const info = MODEL_INFO[model];
    const requestTypes = info.texturesExistingMesh ? ["1", "2", "3"] : ["1", "3"];
    return fc
      .record({
        resolution: fc.option(fc.constantFrom(...info.resolutions)),
        requestType: fc.option(fc.constantFrom(...requestTypes)),
        face: fc.option(num(100000, 5000000)),
        format: fc.option(num(1, 6)),
        pbr: fc.option(fc.constantFrom("0", "1")),
        rmbg: fc.option(fc.constantFrom("0", "1")),
        shading: fc.option(num(0, 1, 1)),
        views: fc.oneof(
          fc.constant({ single: true, count: 1, bit: null as string | null }),
          fc.integer({ min: 1, max: 4 }).chain((count) =>
            fc.option(fc.shuffledSubarray(["1", "2", "3"], { minLength: count - 1, maxLength: count - 1 })).map((rest) => ({
              single: false,
              count,
              bit: rest === null ? null : ["0", "1", "2", "3"].map((i) => (i === "0" || rest.includes(i) ? "1" : "0")).join(""),
            })),
          ),
        ),
        images: fc.array(filePart("images", imageBytes), { minLength: 4, maxLength: 4 }),
        mesh: fc.oneof(
          filePart(
            "mesh",
            tail.map((t) => Buffer.concat([bytes("glTF\x02\x00\x00\x00"), Buffer.from(t)])),
          ),
          fc
            .constantFrom("https://example.com/a.glb", "http://127.0.0.1/m.GLB", "HTTPS://example.com/dir/x.glb?v=1")
            .map((u) => text("mesh_url", u)),
        ),
        callback: fc.option(fc.constantFrom("https://example.com/hook", "http://127.0.0.1:9/cb")),
      })
      .map((f) => {
        const parts: Part[] = [text("model", model)];
        if (f.resolution !== null) parts.push(text("resolution", f.resolution));
        if (f.requestType !== null) parts.push(text("request_type", f.requestType));
        for (const [name, value] of [
          ["face", f.face],
          ["format", f.format],
          ["pbr", f.pbr],
          ["rmbg", f.rmbg],
          ["shading", f.shading],
          ["callback_url", f.callback],
        ] as const) {
          if (value !== null) parts.push(text(name, value));
        }
        if (f.views.single) parts.push(f.images[0]!);
        else {
          for (const image of f.images.slice(0, f.views.count)) parts.push({ ...image, name: "multi_images" });
          if (f.views.bit !== null) parts.push(text("multi_images_bit", f.views.bit));
        }
        if (f.requestType === "2") parts.push(f.mesh);
        return parts;
      });
  });
}

function validSplit(): fc.Arbitrary<Part[]> {
  return fc
    .record({
      mesh: fc.oneof(
        filePart("mesh", meshBytes),
        fc
          .constantFrom("https://example.com/a.glb", "http://example.com/m.STL", "https://example.com/x.obj?v=2")
          .map((u) => text("mesh_url", u)),
      ),
      model: fc.option(fc.constantFrom("character", "general")),
      part: fc.option(fc.constantFrom(...Object.keys(SPLIT_PARTS))),
      joint: fc.option(fc.constantFrom(...SPLIT_JOINTS)),
      merge: fc.option(fc.constantFrom("yes", "no")),
      level: fc.option(fc.constantFrom(...SPLIT_LEVELS)),
      format: fc.option(num(1, 6)),
    })
    .map(({ mesh, ...options }) => [mesh, ...Object.entries(options).flatMap(([k, v]) => (v === null ? [] : [text(k, v)]))]);
}

function validDepth(): fc.Arbitrary<Part[]> {
  return fc
    .record({
      image: fc.oneof(
        filePart("image", imageBytes),
        fc
          .constantFrom("https://example.com/a.png", "http://example.com/b.JPEG", "https://example.com/noext")
          .map((u) => text("image_url", u)),
      ),
      format: num(1, 6),
      model_type: fc.option(fc.constantFrom("base", "pro")),
      height_relief: fc.option(num(0.1, 50, 1)),
      rmbg: fc.option(fc.constantFrom("0", "1")),
      degree_rmbg: fc.option(num(0, 1, 2)),
      shape_base: fc.option(fc.constantFrom("0", "1")),
      thickness_base: fc.option(num(0.1, 20, 1)),
      width: fc.option(num(20, 600)),
      sculpmode: fc.option(fc.constantFrom("0", "1")),
      response_format: fc.option(fc.constant("url")),
    })
    .map(({ image, ...options }) => [image, ...Object.entries(options).flatMap(([k, v]) => (v === null ? [] : [text(k, v)]))]);
}

function validSegmentation(): fc.Arbitrary<Part[]> {
  return fc
    .record({
      mesh: fc.oneof(filePart("mesh", meshBytes), fc.constant(text("mesh_url", "https://example.com/a.obj"))),
      seg_level: fc.option(fc.constantFrom(...SEG_LEVELS)),
      format: fc.option(num(1, 5)),
    })
    .map(({ mesh, ...options }) => [mesh, ...Object.entries(options).flatMap(([k, v]) => (v === null ? [] : [text(k, v)]))]);
}

const FORMS: Record<string, { valid: () => fc.Arbitrary<Part[]>; textFields: string[]; fileFields: string[] }> = {
  "submit-task": {
    valid: validSubmit,
    textFields: [
      "request_type",
      "model",
      "resolution",
      "face",
      "format",
      "pbr",
      "rmbg",
      "shading",
      "multi_images_bit",
      "mesh_url",
      "callback_url",
    ],
    fileFields: ["images", "multi_images", "mesh"],
  },
  "split/create-task": {
    valid: validSplit,
    textFields: ["mesh_url", "model", "part", "joint", "merge", "level", "format", "callback_url"],
    fileFields: ["mesh"],
  },
  "depth/create-task": {
    valid: validDepth,
    textFields: [
      "image_url",
      "model_type",
      "height_relief",
      "rmbg",
      "degree_rmbg",
      "shape_base",
      "thickness_base",
      "width",
      "sculpmode",
      "response_format",
      "format",
      "callback_url",
    ],
    fileFields: ["image"],
  },
  "segmentation/create-task": {
    valid: validSegmentation,
    textFields: ["mesh_url", "seg_level", "format", "callback_url"],
    fileFields: ["mesh"],
  },
};

type Edit = (parts: Part[]) => Part[];

/** Small changes to a form: one field to a near value, a part dropped, doubled, turned file or text, extra parts. */
function edits(epName: string): fc.Arbitrary<Edit> {
  const form = FORMS[epName]!;
  const valueFor = (field: string) => (epName === "split/create-task" && field === "model" ? nearValues.split_model! : near(field));
  const set = fc
    .constantFrom(...form.textFields)
    .chain((field) => valueFor(field).map((v): Edit => (parts) => [...parts.filter((p) => p.name !== field), text(field, v)]));
  const pick = (parts: Part[], i: number) => (parts.length === 0 ? undefined : i % parts.length);
  const anyName = fc.oneof(
    fc.constantFrom(
      ...form.textFields,
      ...form.fileFields,
      "plug_type",
      "plug_task_id",
      "images[]",
      "Images",
      "",
      "image",
      "mesh",
      "multi_images",
    ),
    anyText(30),
  );
  return fc.oneof(
    { weight: 6, arbitrary: set },
    {
      weight: 1,
      arbitrary: fc.nat().map(
        (i): Edit =>
          (parts) =>
            parts.filter((_, j) => j !== pick(parts, i)),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.nat().map(
        (i): Edit =>
          (parts) =>
            parts.length ? [...parts, parts[pick(parts, i)!]!] : parts,
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.nat(), filenames).map(
        ([i, name]): Edit =>
          (parts) =>
            parts.map((p, j) => (j === pick(parts, i) ? { ...p, filename: p.filename === undefined ? name : undefined } : p)),
      ),
    },
    { weight: 1, arbitrary: fc.tuple(anyName, anyText(50)).map(([name, value]): Edit => (parts) => [...parts, text(name, value)]) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(anyName, fc.oneof(imageBytes, meshBytes, junkBytes))
        .chain(([name, body]) => filePart(name, fc.constant(body), true).map((p): Edit => (parts) => [...parts, p])),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...form.fileFields)
        .chain((name) => filePart(name, fc.oneof(imageBytes, meshBytes, junkBytes), true).map((p): Edit => (parts) => [...parts, p])),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...form.fileFields).map(
        (name): Edit =>
          (parts) =>
            parts.filter((p) => p.name !== name),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]).map(
        (order): Edit =>
          (parts) =>
            [...parts].sort((a, b) => (order[parts.indexOf(a)] ?? 99) - (order[parts.indexOf(b)] ?? 99)),
      ),
    },
  );
}

/** Forms built from field names alone, stressing the parser's limits. */
function stressForm(epName: string): fc.Arbitrary<Part[]> {
  const form = FORMS[epName]!;
  return fc.oneof(
    // Over busboy's 200 fields.
    fc.integer({ min: 190, max: 260 }).map((n) => Array.from({ length: n }, (_, i) => text(`f${i}`, "x"))),
    // Field names over 200 bytes are cut by busboy.
    fc.integer({ min: 150, max: 3000 }).map((n) => [text("n".repeat(n), "v")]),
    // A text field at and past 64 kB, and a file that long under a field that takes none.
    fc.tuple(fc.constantFrom(...form.textFields), fc.integer({ min: 65_530, max: 65_560 })).map(([name, n]) => [text(name, "1".repeat(n))]),
    fc
      .tuple(fc.constantFrom(...form.textFields), fc.integer({ min: 65_530, max: 70_000 }))
      .map(([name, n]) => [file(name, Buffer.alloc(n, 0x31), "big.txt")]),
    // More files than the endpoint takes.
    fc
      .tuple(fc.constantFrom(...form.fileFields), fc.integer({ min: 2, max: 10 }), imageBytes)
      .map(([name, n, body]) => Array.from({ length: n }, () => file(name, body, "x.png"))),
    // A part whose Content-Type carries 60 parameters, and parts with 40 to 80 header lines (busboy reads 50).
    fc.constant<Part[]>([{ name: "model", body: bytes("x3dv3.0"), type: `text/plain${"; a=b".repeat(60)}` }]),
    fc
      .tuple(fc.constantFrom(...form.fileFields), fc.integer({ min: 40, max: 80 }), imageBytes)
      .map(([name, n, body]) => [
        { ...file(name, body, "x.png", "image/png"), headers: Array.from({ length: n }, (_, i) => `X-Header-${i}: ${i}`) },
      ]),
  );
}

interface Body {
  contentType?: string;
  body?: Buffer;
  chunked: boolean;
  /** The Content-Type is not multipart/form-data with a boundary, so the endpoint's notMultipart code is due. */
  notMultipart: boolean;
  /** A well-formed multipart body, undamaged. */
  intact: boolean;
  /** The code a valid form must get. */
  due?: number;
  note: string;
}

/** Characters a boundary may have (RFC 2046 bchars), and those a header may leave unquoted (RFC 2045 token). */
const BCHARS = "abcXYZ0129'()+_,-./:=? ";
const TOKEN_CHARS = "abcXYZ0129'+_-.";
const TSPECIALS = /[()<>@,;:\\"/[\]?= ]/;

interface Framing {
  boundary: string;
  contentType: string;
  /** RFC 2046 and 2045 allow it: a parser must take it. */
  proper: boolean;
}

const headerForms: ((b: string) => Framing)[] = [
  (b) => ({ boundary: b, contentType: `multipart/form-data; boundary=${b}`, proper: true }),
  (b) => ({ boundary: b, contentType: `multipart/form-data; boundary="${b}"`, proper: true }),
  (b) => ({ boundary: b, contentType: `Multipart/Form-Data;BOUNDARY=${b}`, proper: true }),
  (b) => ({ boundary: b, contentType: `multipart/form-data; charset=utf-8; boundary=${b}`, proper: true }),
  (b) => ({ boundary: b, contentType: `multipart/form-data;boundary=${b};`, proper: false }),
  (b) => ({ boundary: b, contentType: `multipart/form-data; boundary=${b}; boundary=other`, proper: false }),
];

const framings: fc.Arbitrary<Framing> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.oneof(
          hex(16).map((h) => `----fuzz${h}`),
          fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 70 }),
        ),
        fc.constantFrom(...headerForms),
      )
      .map(([b, form]) => form(b)),
  },
  // Any bchars, quoted as RFC 2045 asks; unquoted they are not a valid header.
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.string({ unit: fc.constantFrom(...BCHARS), minLength: 1, maxLength: 70 }).filter((b) => !b.endsWith(" ")),
        fc.boolean(),
      )
      .map(([b, quoted]) => ({
        boundary: b,
        contentType: `multipart/form-data; boundary=${quoted ? `"${b}"` : b}`,
        proper: quoted || !TSPECIALS.test(b),
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("x".repeat(71), "y".repeat(200))
      .map((b) => ({ boundary: b, contentType: `multipart/form-data; boundary=${b}`, proper: false })),
  },
);

/** Multipart bodies, whole or damaged: bad boundaries, truncation, lone LFs, garbage around the parts. */
function multipartBody(parts: fc.Arbitrary<Part[]>, damage = true): fc.Arbitrary<Body> {
  const mangle = fc.oneof(
    { weight: 20, arbitrary: fc.constant({ kind: "none" as const }) },
    { weight: 1, arbitrary: fc.nat().map((at) => ({ kind: "truncate" as const, at })) },
    { weight: 1, arbitrary: fc.constant({ kind: "no-close" as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: "lf" as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: "other-boundary" as const }) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => ({ kind: "preamble" as const, bytes: Buffer.from(b) })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => ({ kind: "epilogue" as const, bytes: Buffer.from(b) })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 20 }))
        .map(([at, b]) => ({ kind: "insert" as const, at, bytes: Buffer.from(b) })),
    },
  );
  const framing = damage ? framings : framings.filter((f) => f.proper);
  return fc
    .record({ parts, framing, mangle: damage ? mangle : fc.constant({ kind: "none" as const }), chunked: fc.boolean() })
    .map(({ parts: ps, framing: { boundary, contentType: type, proper }, mangle: m, chunked }) => {
      let body = serialize(ps, boundary);
      let contentType = type;
      switch (m.kind) {
        case "truncate":
          body = body.subarray(0, m.at % (body.length + 1));
          break;
        case "no-close":
          body = body.subarray(0, body.length - boundary.length - 6);
          break;
        case "lf":
          body = serialize(ps, boundary, "\n");
          break;
        case "other-boundary":
          contentType = type.replace(boundary, `${boundary}x`);
          break;
        case "preamble":
          body = Buffer.concat([m.bytes, Buffer.from("\r\n"), body]);
          break;
        case "epilogue":
          body = Buffer.concat([body, m.bytes]);
          break;
        case "insert": {
          const at = m.at % (body.length + 1);
          body = Buffer.concat([body.subarray(0, at), m.bytes, body.subarray(at)]);
          break;
        }
      }
      const names = ps.map((p) => `${p.name.slice(0, 20)}${p.filename !== undefined ? "[file]" : ""}`).join(",");
      return {
        contentType,
        body,
        chunked,
        notMultipart: false,
        intact: m.kind === "none" && proper,
        note: `multipart(${m.kind}${proper ? "" : ", improper framing"}) ${names.slice(0, 300)}`,
      };
    });
}

/** What a client sends where a form is expected: JSON, urlencoded, text, nothing, or a multipart with a broken header. */
function otherBody(epName: string): fc.Arbitrary<Body> {
  const form = FORMS[epName]!;
  const fields = fc.dictionary(fc.constantFrom(...form.textFields, ...form.fileFields), anyText(30), { maxKeys: 6 });
  const kinds = fc.oneof(
    fields.map((f) => ({ contentType: "application/json", body: JSON.stringify(f) })),
    fc.json({ maxDepth: 3 }).map((j) => ({ contentType: "application/json; charset=utf-8", body: j })),
    fields.map((f) => ({ contentType: "application/x-www-form-urlencoded", body: new URLSearchParams(f).toString() })),
    anyText(200).map((t) => ({ contentType: "text/plain", body: t })),
    fc
      .constantFrom(
        "multipart/form-data",
        "multipart/form-data; boundary",
        "multipart/mixed; boundary=zz",
        "multipart/form-data boundary=zz",
        "application/json; boundary=zz",
        "",
        "garbage",
      )
      .chain((contentType) => fc.constant({ contentType, body: serialize([text("model", "x3dv3.0")], "zz").toString("utf8") })),
  );
  return fc
    .record({ kind: kinds, drop: fc.constantFrom("none", "type", "body"), chunked: fc.boolean() })
    .map(({ kind, drop, chunked }) => ({
      contentType: drop === "type" ? undefined : kind.contentType,
      body: drop === "body" ? undefined : Buffer.from(kind.body, "utf8"),
      chunked,
      notMultipart: true,
      intact: false,
      note: `non-form ${drop === "type" ? "(no type) " : ""}${kind.contentType}`,
    }));
}

/** What a valid form must get: accepted, unless its price is the one above the balance. */
function validAnswer(parts: Part[]): number {
  const value = (name: string) => parts.find((p) => p.name === name && p.filename === undefined)?.body.toString("utf8");
  return value("model") === "x3dv3.0" && value("resolution") === "2048master" ? 30010000 : 200;
}

function createCases(epName: string): fc.Arbitrary<Case> {
  const ep = endpoint(epName);
  const form = FORMS[epName]!;
  const edited = fc.tuple(form.valid(), fc.array(edits(epName), { maxLength: 3 })).map(([parts, es]) => es.reduce((p, e) => e(p), parts));
  const valid = form.valid().chain((parts) => multipartBody(fc.constant(parts), false).map((b) => ({ ...b, due: validAnswer(parts) })));
  const body = fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 1, arbitrary: multipartBody(form.valid()) },
    { weight: 6, arbitrary: multipartBody(edited) },
    { weight: 1, arbitrary: otherBody(epName) },
    { weight: 1, arbitrary: multipartBody(stressForm(epName)) },
  );
  // Mostly a good token here: the gate is fuzzed on every endpoint, the forms only behind it.
  return fc.record({ auth: authArb(1), body, extra: extraHeaders }).map(({ auth, body: b, extra }) => {
    const headers: Record<string, string> = { ...extra, ...authHeaders(auth) };
    if (b.contentType !== undefined) headers["Content-Type"] = b.contentType;
    const expected = !admits(ep, auth) ? 401 : b.notMultipart ? ep.notMultipart : b.due;
    return makeCase(
      ep,
      { method: "POST", path: `/open-api/v1/${epName}`, headers, body: b.body, chunked: b.chunked },
      `${b.due ? "valid " : ""}${b.note}`,
      expected,
    );
  });
}

// --- wrong methods and the file route -----------------------------------------------------------

function methodCases(): fc.Arbitrary<Case> {
  return fc
    .record({
      ep: fc.constantFrom(...ENDPOINTS),
      method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"),
      auth: authArb(),
      body: fc.option(jsonBody),
      extra: extraHeaders,
    })
    .filter(({ ep, method }) => method !== ep.method && !(ep.method === "GET" && method === "HEAD"))
    .map(({ ep, method, auth, body, extra }) => {
      const wire: Wire = {
        method,
        path: `/open-api/v1/${ep.name}?task_id=x`,
        headers: { ...extra, ...authHeaders(auth) },
        body: body && method !== "HEAD" ? Buffer.from(body, "utf8") : undefined,
      };
      // HEAD and OPTIONS have no envelope: HEAD has no body, OPTIONS answers 204 with Allow.
      return makeCase(ep, wire, `wrong method ${method}`, method === "HEAD" || method === "OPTIONS" ? undefined : METHOD_NOT_ALLOWED);
    });
}

function fileCases(): fc.Arbitrary<Case> {
  const segment = fc.oneof(
    fc.constantFrom(blocker, `${blocker}x`, "..", "%2e%2e", "..%2f..%2fetc", "%00", "a%2Fb", "%C0%AE%C0%AE"),
    fc.tuple(fc.constantFrom(...PREFIXES), hex(24)).map(([p, h]) => `${p}_20261124_${h}`),
    anyText(40).map(pct),
    fc.integer({ min: 2000, max: 6000 }).map((n) => "a".repeat(n)),
  );
  const fileName = fc.oneof(
    fc.constantFrom("result.glb", "cover.png", "cover.webp", "result.exe", "result.", "result.GLB", "..", "%2e%2e%2fx", "input.png"),
    anyText(30).map(pct),
  );
  const param = (name: string, values: fc.Arbitrary<string>) =>
    fc.option(
      values.map((v) => `${name}=${pct(v)}`),
      { nil: undefined },
    );
  return fc
    .record({
      id: segment,
      name: fileName,
      t: param(
        "t",
        fc.oneof(
          fc.constantFrom("", "abc", "-1", "1e20", "99999999999999999999", String(Math.floor(Date.now() / 1000) + 3600)),
          anyText(12),
        ),
      ),
      key: param(
        "auth_key",
        fc.oneof(hex(43), fc.uint8Array({ minLength: 32, maxLength: 32 }).map(b64url), anyText(20), fc.constant("a".repeat(5000))),
      ),
      method: fc.constantFrom("GET", "HEAD"),
      range: fc.option(fc.constantFrom("bytes=0-10", "bytes=-5", "bytes=abc", "bytes=10-0"), { nil: undefined }),
    })
    .map(({ id, name, t, key, method, range }) => {
      const query = [t, key].filter((q) => q !== undefined).join("&");
      const wire: Wire = {
        method,
        path: `/open-api/v1/files/${id}/${name}${query ? `?${query}` : ""}`,
        headers: range ? { Range: range } : {},
      };
      return makeCase(FILES, wire, "file link");
    });
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  const costs = {
    imageTo3d: Object.fromEntries(
      Object.keys(DEFAULT_COSTS.imageTo3d).map((k) => [
        k,
        k === "x3dv3.0:2048master" ? [UNAFFORDABLE, UNAFFORDABLE, UNAFFORDABLE] : [1, 1, 1],
      ]),
    ),
    split: 1,
    depth: 1,
    segmentation: 1,
  };
  server = await startServer({
    X3D_ENGINE_BALANCE: String(START_BALANCE),
    X3D_ENGINE_COSTS: JSON.stringify(costs),
    X3D_ENGINE_CONCURRENCY: "1",
    X3D_ENGINE_MIN_TASK_SECONDS: "3600",
    X3D_ENGINE_BODY_TIMEOUT: "5",
  });
  const res = await send({ method: "POST", path: "/open-api/v1/auth/token", headers: { Authorization: basic() } });
  token = (JSON.parse(res.body.toString("utf8")) as Envelope<{ accessToken: string }>).data.accessToken;

  // The blocker takes the client's one processing slot for an hour: every task the fuzz gets
  // accepted stays queueing, so no refund or generation happens while credits are counted.
  const form = new FormData();
  form.append("image", fixture("chair.png"), "chair.png");
  for (const [k, v] of Object.entries({ format: "2", model_type: "base", rmbg: "0" })) form.append(k, v);
  const created = (await (
    await fetch(`${server.url}/open-api/v1/depth/create-task`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    })
  ).json()) as Envelope;
  expect(created.code, JSON.stringify(created)).toBe(200);
  blocker = created.data.task_id as string;
  for (;;) {
    const q = (await (
      await fetch(`${server.url}/open-api/v1/depth/query-task?task_id=${blocker}`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as Envelope;
    expect(["queueing", "processing"], JSON.stringify(q)).toContain(q.data.state);
    if (q.data.state === "processing") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`fuzz: seed ${SEED} (X3D_FUZZ_SEED replays another), scale ${SCALE}, ${usingPostgres() ? "PostgreSQL" : "PGlite"}`);
});

afterAll(async () => {
  agent.destroy();
  await server?.dispose();
});

describe("fuzz: every answer is the envelope with a documented code, and refusals move nothing", () => {
  it("auth/token: Basic headers of every shape, any body", () => batch(1, runs(300), tokenCases()), 300_000);
  it("balance: every kind of Authorization", () => batch(2, runs(250), balanceCases()), 300_000);
  it("the four query endpoints: hostile task_ids", () => batch(3, runs(900), queryCases()), 300_000);
  it(
    "submit-task: forms near the valid ones, damaged multipart, other bodies",
    () => batch(4, runs(1100), createCases("submit-task")),
    300_000,
  );
  it("split/create-task", () => batch(5, runs(600), createCases("split/create-task")), 300_000);
  it("depth/create-task", () => batch(6, runs(700), createCases("depth/create-task")), 300_000);
  it("segmentation/create-task", () => batch(7, runs(500), createCases("segmentation/create-task")), 300_000);
  it("wrong methods on every endpoint", () => batch(8, runs(350), methodCases()), 300_000);
  it("files/<task>/<file>: forged and hostile links never serve a file nor answer 5xx", () => batch(9, runs(300), fileCases()), 300_000);

  it("what was accepted is there, untouched, and the fuzz reached every gate", async () => {
    for (const [name, seen] of stats.codes)
      console.log(
        `fuzz: ${name}: ${[...seen]
          .sort((a, b) => a[0] - b[0])
          .map(([c, n]) => `${c}x${n}`)
          .join(" ")}`,
      );
    console.log(`fuzz: ${stats.cases} cases over ${stats.endpoints.size} endpoints`);
    // Accepted tasks exist, queued behind the blocker (so nothing was refunded meanwhile).
    for (const { endpoint: name, taskId } of stats.accepted) {
      const query = name === "submit-task" ? "query-task" : name.replace("create-task", "query-task");
      const answer = await send({
        method: "GET",
        path: `/open-api/v1/${query}?task_id=${taskId}`,
        headers: { Authorization: `Bearer ${token}` },
      });
      const body = JSON.parse(answer.body.toString("utf8")) as Envelope;
      expect(body.code, `${query} ${taskId}`).toBe(200);
      expect(body.data.state).toBe("queueing");
    }
    expect(await balance()).toBe(START_BALANCE - 1 - stats.accepted.length);
    // The generators must reach past the parser: each create accepts some forms and refuses
    // others for their options, and submit-task's unaffordable price is met.
    for (const name of CREATES) {
      const seen = stats.codes.get(name) ?? new Map<number, number>();
      expect(seen.get(200) ?? 0, `${name} accepted nothing`).toBeGreaterThan(0);
      expect([...seen.keys()].filter((c) => c >= 10030000 && c < 10040000).length, `${name} codes ${[...seen.keys()]}`).toBeGreaterThan(3);
    }
    expect(stats.codes.get("submit-task")?.get(30010000) ?? 0).toBeGreaterThan(0);
    expect(stats.endpoints.size).toBe(ENDPOINTS.length + 1);
  });
});
