import { describe, expect, it } from "vitest";
import { EngineError } from "../engine-error";
import { callbackUrl, isHttpUrl, type FormInput } from "./form";

const form = (fields: Record<string, string>): FormInput => ({
  fields: new Map(Object.entries(fields).map(([k, v]) => [k, [v]])),
  files: new Map(),
});

describe("isHttpUrl", () => {
  it("takes absolute http and https URLs only", () => {
    expect(isHttpUrl("https://example.com/a.glb")).toBe(true);
    expect(isHttpUrl("HTTP://example.com/a b.png")).toBe(true);
    expect(isHttpUrl("ftp://example.com/a.glb")).toBe(false);
    expect(isHttpUrl("example.com/a.glb")).toBe(false);
  });
  it("refuses control characters, which the URL parser would quietly encode but the database cannot store (NUL)", () => {
    for (const c of ["\0", "\u0001", "\u001f", "\u007f", "\n"]) {
      expect(isHttpUrl(`https://example.com/a${c}.glb`), JSON.stringify(c)).toBe(false);
    }
  });
});

describe("callbackUrl", () => {
  it("answers 10030001 for a URL with a NUL byte", () => {
    expect(() => callbackUrl(form({ callback_url: "https://example.com/hook\0" }))).toThrow(EngineError);
    expect(callbackUrl(form({ callback_url: " https://example.com/hook " }))).toBe("https://example.com/hook");
  });
});
