// passwordProblem at its limits, each refusal one step from an acceptance: the length bounds and
// the strength threshold (zxcvbn score 3, 10^8 guesses).
import { describe, expect, it } from "vitest";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from "./password-rules";

const TOO_EASY =
  "This password is too easy to guess. Use one that is not common and not built on your name or e-mail, e.g. a few unrelated words.";

describe("passwordProblem at its limits", () => {
  it("takes a hard one of exactly the minimum length, refuses it a character shorter", async () => {
    expect(MIN_PASSWORD_LENGTH).toBe(10);
    expect(await passwordProblem("vQ7#zK2!wX")).toBeNull();
    expect(await passwordProblem("vQ7#zK2!w")).toBe("Use at least 10 characters.");
  });

  it("judges one of exactly the maximum length by its strength, refuses it a character longer", async () => {
    // A repeat (quick for zxcvbn, where 200 varied characters take seconds): weak, but not too long.
    expect(await passwordProblem("ab".repeat(MAX_PASSWORD_LENGTH / 2))).toMatch(/^This password is too easy to guess\./);
    expect(await passwordProblem(`${"ab".repeat(MAX_PASSWORD_LENGTH / 2)}x`)).toBe(`Use at most ${MAX_PASSWORD_LENGTH} characters.`);
  });

  it("refuses 10^7 guesses (score 2) and takes 10^8 (score 3); without a warning, says only the rule", async () => {
    expect(await passwordProblem("tiger lily")).toBe(TOO_EASY);
    expect(await passwordProblem("horse staple")).toBeNull();
  });

  it("refuses a password on a personal word of three letters or more, not on a shorter one", async () => {
    // zxcvbn is told the e-mail, its parts (split at @ . space _ + -) and the name.
    expect(await passwordProblem("bongo-drum", ["bongo@example.com"])).toMatch(/^This password is too easy to guess\./);
    expect(await passwordProblem("Bongo-Drum", ["bongo@example.com"])).toMatch(/^This password is too easy to guess\./);
    expect(await passwordProblem("Bongo-Drum", ["x@example.com", "Xi"])).toBeNull();
  });
});
