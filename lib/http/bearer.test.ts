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
  ])("refuses %j", (header) => {
    expect(bearerMatches(header, token)).toBe(false);
  });
});
