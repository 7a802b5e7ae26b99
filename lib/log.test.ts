import { describe, expect, it } from "vitest";
import { createLogger, registerSecret, routeConsoleToLog, safeError, scrubSecrets, withLogContext } from "./log";

/** A logger whose lines land in an array, parsed. */
function capture() {
  const lines: string[] = [];
  const logger = createLogger({ write: (line: string) => void lines.push(line) });
  const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, entries };
}

describe("the logger", () => {
  it("writes JSON lines with the level's name, an ISO time and the request id of the context", async () => {
    const { logger, entries } = capture();
    logger.info("outside");
    await withLogContext("req-1", async () => {
      await new Promise((r) => setTimeout(r, 5));
      logger.warn({ part: "x" }, "inside, after an await");
    });
    expect(entries()).toMatchObject([
      { level: "info", reqId: "process", msg: "outside" },
      { level: "warn", reqId: "req-1", part: "x", msg: "inside, after an await" },
    ]);
    expect(entries()[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("redacts credential keys at the top and nested", () => {
    const { logger, lines } = capture();
    logger.info(
      {
        authorization: "Bearer abc",
        password: "hunter2hunter2",
        headers: { authorization: "Basic Zm9vOmJhcg==", cookie: "authjs.session-token=v", "set-cookie": "a=b" },
        req: { headers: { cookie: "c=d" } },
        client: { clientSecret: "s3cr3t-value", accessToken: "tok-value" },
      },
      "request",
    );
    const line = lines.join("");
    for (const value of ["abc", "hunter2hunter2", "Zm9vOmJhcg==", "session-token=v", "a=b", "c=d", "s3cr3t-value", "tok-value"])
      expect(line, value).not.toContain(value);
    expect(line).toContain('"authorization":"[redacted]"');
  });

  it("scrubs registered secrets and token-shaped values from messages and errors", () => {
    registerSecret("configured-secret-value-1234");
    const { logger, lines } = capture();
    logger.info("the pair is id:configured-secret-value-1234");
    logger.error({ err: new Error("call failed with Bearer x3d.eyJhYmMiOjF9.c2lnbmF0dXJlLXNpZ25hdHVyZQ") }, "failed");
    logger.info("callback to http://h/api/callbacks/task1/0123456789abcdef0123 answered 500");
    const text = lines.join("");
    expect(text).not.toContain("configured-secret-value-1234");
    expect(text).not.toContain("c2lnbmF0dXJl");
    expect(text).not.toContain("0123456789abcdef0123");
    expect(text).toContain("/api/callbacks/task1/[redacted]");
  });

  it("registers no short value (it would scrub ordinary words)", () => {
    registerSecret("abc");
    expect(scrubSecrets("abc def")).toBe("abc def");
  });
});

describe("scrubSecrets", () => {
  it.each([
    ["Authorization: Basic dGVzdDpzZWNyZXQtdmFsdWU=", "Authorization: Basic [redacted]"],
    ["token x3d.eyJjIjoiYSJ9.abcdefghijklmnopqrstuv", "token x3d.[redacted]"],
    ["cookie eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2In0..iv.cipher.tag", "cookie [redacted]"],
    ["postgres://x3d:pa55word@db:5432/x3d", "postgres://x3d:[redacted]@db:5432/x3d"],
    ["Failed query: select 1\nparams: sid-123,hash", "Failed query: select 1\nparams: [redacted]"],
  ])("%s", (input, output) => {
    expect(scrubSecrets(input, [])).toBe(output);
  });
});

describe("safeError", () => {
  it("keeps type, message, code, stack and cause; drops every other property", () => {
    const cause = Object.assign(new Error("inner"), { code: "ECONNREFUSED" });
    const error = Object.assign(new Error("outer", { cause }), { headers: { authorization: "Bearer zzz" }, config: { secret: "s" } });
    const safe = safeError(error);
    expect(safe).toMatchObject({ type: "Error", message: "outer", cause: { type: "Error", message: "inner", code: "ECONNREFUSED" } });
    expect(JSON.stringify(safe)).not.toContain("zzz");
    expect(Object.keys(safe as object).sort()).toEqual(["cause", "message", "stack", "type"]);
  });

  it("names Auth.js errors by their type and unwraps their {err} cause", () => {
    const error = Object.assign(
      new Error("Read more at https://errors.authjs.dev#jwtsessionerror", { cause: { err: new Error("no key") } }),
      {
        type: "JWTSessionError",
      },
    );
    expect(safeError(error)).toMatchObject({ type: "JWTSessionError", cause: { message: "no key" } });
  });
});

describe("routeConsoleToLog", () => {
  it("turns console calls into lines of the logger, an Error argument into err", () => {
    const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
    const holder = globalThis as Record<symbol, unknown>;
    const key = Symbol.for("x3d.log.console");
    const before = holder[key];
    delete holder[key];
    const { logger, entries } = capture();
    try {
      routeConsoleToLog(logger);
      withLogContext("req-2", () => {
        console.log("ready on port %d", 3000);
        console.error("⨯ failed", new Error("boom"));
      });
    } finally {
      Object.assign(console, saved);
      holder[key] = before;
    }
    expect(entries()).toMatchObject([
      { level: "info", reqId: "req-2", msg: "ready on port 3000" },
      { level: "error", reqId: "req-2", msg: "⨯ failed", err: { type: "Error", message: "boom" } },
    ]);
  });
});
