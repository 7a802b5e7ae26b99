// The callback URL's secret against its stored hash: the edges of what is accepted.
import { describe, expect, it } from "vitest";
import { hashSecret, secretMatches } from "./callback";

describe("secretMatches, edges", () => {
  it("never accepts an empty secret, even against the hash of the empty string", () => {
    expect(secretMatches("", hashSecret(""))).toBe(false);
  });

  it("accepts secrets up to 256 characters and refuses longer ones whatever the hash", () => {
    const longest = "s".repeat(256);
    expect(secretMatches(longest, hashSecret(longest))).toBe(true);
    const tooLong = "s".repeat(257);
    expect(secretMatches(tooLong, hashSecret(tooLong))).toBe(false);
  });

  it("refuses a stored hash with anything before or after its 64 hex digits", () => {
    const hash = hashSecret("the secret");
    expect(secretMatches("the secret", `g${hash}`)).toBe(false);
    expect(secretMatches("the secret", `${hash}g`)).toBe(false);
    expect(secretMatches("the secret", `${hash}00`)).toBe(false);
    expect(secretMatches("the secret", hash.toUpperCase())).toBe(false);
  });
});
