import { describe, expect, it } from "vitest";
import { bearerMatches } from "./bearer";

describe("bearerMatches", () => {
  const token = "metrics-token-0123456789";
  it.each([`Bearer ${token}`, `bearer ${token}`, `Bearer  ${token} `])("accepts %j", (header) => {
    expect(bearerMatches(header, token)).toBe(true);
  });
  it.each([
    null,
    undefined,
    "",
    token,
    `Basic ${token}`,
    `Bearer ${token}x`,
    `Bearer ${token.slice(1)}`,
    `Bearer ${token} extra`,
    "Bearer ",
    `xBearer ${token}`,
    `Bearer ${token}\nX-Other: 1`,
  ])("refuses %j", (header) => {
    expect(bearerMatches(header, token)).toBe(false);
  });
  it("refuses a missing or malformed header even when the expected token is empty", () => {
    for (const header of [null, "", "Bearer", "Basic x"]) expect(bearerMatches(header, ""), String(header)).toBe(false);
  });
});
