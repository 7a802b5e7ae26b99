import { describe, expect, it } from "vitest";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from "./password-rules";

describe("passwordProblem", () => {
  it("refuses short passwords, naming the minimum", async () => {
    expect(await passwordProblem("short")).toBe(`Use at least ${MIN_PASSWORD_LENGTH} characters.`);
    // Characters, not UTF-16 units: nine emoji are nine characters.
    expect(await passwordProblem("\u{1f600}".repeat(9))).toBe(`Use at least ${MIN_PASSWORD_LENGTH} characters.`);
    expect(await passwordProblem("x".repeat(MAX_PASSWORD_LENGTH + 1))).toBe(`Use at most ${MAX_PASSWORD_LENGTH} characters.`);
  });

  it("refuses common and easily guessed passwords of any length, saying why", async () => {
    for (const password of [
      "password123",
      "qwertyuiop",
      "1234567890",
      "P@ssw0rd123",
      "iloveyou12",
      "aaaaaaaaaaaa",
      "abcdefghijk",
      "football2024",
    ]) {
      const problem = await passwordProblem(password);
      expect(problem, password).toMatch(/^This password is too easy to guess\./);
    }
    expect(await passwordProblem("password123")).toContain("This is a commonly used password.");
  });

  it("refuses a password built on the user's e-mail or name", async () => {
    expect(await passwordProblem("hollowaymargaret", ["margaret.holloway@example.com"])).toMatch(/too easy to guess/);
    expect(await passwordProblem("Holloway1990!", ["m.h@example.com", "Margaret Holloway"])).toMatch(/too easy to guess/);
  });

  it("accepts long uncommon passwords and passphrases, including the ones tests and benches use", async () => {
    for (const password of [
      "correct horse battery staple",
      "kiln-umber-vellum-42",
      "Tr0ub4dor&3x",
      "a long password",
      "a long bench password",
      "another long password",
    ]) {
      expect(await passwordProblem(password, ["artist-1234@example.com"]), password).toBeNull();
    }
  });
});
