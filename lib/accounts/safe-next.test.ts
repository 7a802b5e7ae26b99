import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next";

describe("safeNext", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    expect(safeNext("/")).toBe("/");
    expect(safeNext("/tasks")).toBe("/tasks");
    expect(safeNext("/tasks/abc-123")).toBe("/tasks/abc-123");
    expect(safeNext("/new/image?from=t1&x=a%20b#top")).toBe("/new/image?from=t1&x=a%20b#top");
    expect(safeNext("/tasks/../new/split")).toBe("/new/split");
    // Only a leading "//" names another host; doubled slashes later are a path on this site.
    expect(safeNext("/tasks/abc-123//")).toBe("/tasks/abc-123//");
  });

  it("sends other origins to /: protocol-relative, backslashes, schemes", () => {
    for (const next of [
      "//evil.example",
      "//evil.example/path",
      "///evil.example",
      "/\\evil.example",
      "\\/evil.example",
      "\\\\evil.example",
      "/\\/evil.example",
      "https://evil.example",
      "http:evil.example",
      "javascript:alert(1)",
      "data:text/html,hi",
      "evil.example",
      "tasks",
      "",
      " /tasks",
    ]) {
      expect(safeNext(next), next).toBe("/");
    }
  });

  it("sends encoded and whitespace tricks to /", () => {
    for (const next of [
      "/%2F%2Fevil.example",
      "/%2f%2fevil.example",
      "%2F%2Fevil.example",
      "/%5Cevil.example",
      "/%5cevil.example",
      "/%252F%252Fevil.example",
      "/%09/evil.example",
      "/%0A/evil.example",
      "/%7F",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/\u0000/evil.example",
      "/\u0085/evil.example",
      "/\u2028/evil.example",
      "/\uff0f\uff0fevil.example",
      "/tasks with space",
    ]) {
      expect(safeNext(next), JSON.stringify(next)).toBe("/");
    }
  });

  it("sends what is not a string, or absurdly long, to /", () => {
    expect(safeNext(undefined)).toBe("/");
    expect(safeNext(null)).toBe("/");
    expect(safeNext(["/tasks"])).toBe("/");
    expect(safeNext(`/${"a".repeat(3000)}`)).toBe("/");
    // The limit is 2000 characters: a path of exactly that length is kept, one more is not.
    expect(safeNext(`/${"a".repeat(1999)}`)).toBe(`/${"a".repeat(1999)}`);
    expect(safeNext(`/${"a".repeat(2000)}`)).toBe("/");
  });
});
