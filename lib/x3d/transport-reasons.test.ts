import { describe, expect, it } from "vitest";
import { DEFAULT_TIMEOUTS, describeFailure, errorCode, mayHaveBeenSent } from "./transport";

/** A fetch failure as undici gives it: a TypeError whose cause carries the code. */
const fetchFailure = (code: string, message = `${code} happened`) =>
  Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(message), { code }) });

describe("the code of a failure", () => {
  it("is the first string code down the cause chain", () => {
    expect(errorCode(fetchFailure("ECONNRESET"))).toBe("ECONNRESET");
    expect(errorCode(Object.assign(new Error("outer"), { code: "OUTER", cause: { code: "INNER" } }))).toBe("OUTER");
    expect(errorCode({ code: 42, cause: { code: "INNER" } })).toBe("INNER");
  });

  it("is looked for five levels deep at most, and is absent without one", () => {
    const nested = (depth: number): unknown => (depth === 0 ? { code: "DEEP" } : { cause: nested(depth - 1) });
    expect(errorCode(nested(4))).toBe("DEEP");
    expect(errorCode(nested(5))).toBeUndefined();
    expect(errorCode(new Error("plain"))).toBeUndefined();
    expect(errorCode(undefined)).toBeUndefined();
    expect(errorCode("text")).toBeUndefined();
  });
});

describe("whether a failed request may have reached the service", () => {
  it.each([
    "UND_ERR_CONNECT_TIMEOUT",
    "ECONNREFUSED",
    "ENOTFOUND",
    "EAI_AGAIN",
    "EHOSTUNREACH",
    "ENETUNREACH",
    "EADDRNOTAVAIL",
    "ERR_INVALID_URL",
  ])("not when the failure is %s", (code) => expect(mayHaveBeenSent(fetchFailure(code))).toBe(false));

  it.each(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ECONNRESET", "UND_ERR_SOCKET", "EPIPE"])("perhaps when it is %s", (code) =>
    expect(mayHaveBeenSent(fetchFailure(code))).toBe(true),
  );

  it("perhaps when nothing says otherwise", () => {
    expect(mayHaveBeenSent(new Error("odd"))).toBe(true);
    expect(mayHaveBeenSent(null)).toBe(true);
  });
});

describe("the reason given for a failure", () => {
  const timeouts = { connectMs: 2_500, headersMs: 45_000, bodyMs: 12_000 };

  it("names the phase that timed out and its limit in seconds", () => {
    expect(describeFailure(fetchFailure("UND_ERR_CONNECT_TIMEOUT"), timeouts)).toBe("could not connect within 2.5 s");
    expect(describeFailure(fetchFailure("UND_ERR_HEADERS_TIMEOUT"), timeouts)).toBe("no answer within 45 s");
    expect(describeFailure(fetchFailure("UND_ERR_BODY_TIMEOUT"), timeouts)).toBe("the answer stalled for 12 s");
    expect(describeFailure(fetchFailure("ECONNREFUSED"), timeouts)).toBe("connection refused");
  });

  it("uses the default limits when none are given", () => {
    expect(DEFAULT_TIMEOUTS).toEqual({ connectMs: 10_000, headersMs: 60_000, bodyMs: 30_000 });
    expect(describeFailure(fetchFailure("UND_ERR_CONNECT_TIMEOUT"))).toBe("could not connect within 10 s");
    expect(describeFailure(fetchFailure("UND_ERR_HEADERS_TIMEOUT"))).toBe("no answer within 60 s");
    expect(describeFailure(fetchFailure("UND_ERR_BODY_TIMEOUT"))).toBe("the answer stalled for 30 s");
  });

  it("otherwise gives the cause's message, the error's own, or the thrown value", () => {
    expect(describeFailure(fetchFailure("ECONNRESET", "socket hang up"))).toBe("socket hang up");
    expect(describeFailure(new Error("plain failure"))).toBe("plain failure");
    expect(describeFailure(Object.assign(new Error("outer"), { cause: "not an error" }))).toBe("outer");
    expect(describeFailure("a string")).toBe("a string");
  });
});
