import { describe, expect, it } from "vitest";
import {
  countAfterEvent,
  secondsLeft,
  SIGN_IN_PER_ADDRESS,
  SIGN_IN_PER_ADDRESS_AND_EMAIL,
  signUpPerAddress,
  waitSeconds,
  type ThrottlePolicy,
} from "./throttle";

const waits = (policy: ThrottlePolicy, counts: number[]) => counts.map((n) => waitSeconds(policy, n));
const T0 = Date.UTC(2026, 0, 1, 12);
const at = (seconds: number) => T0 + seconds * 1000;
const row = (count: number, lastSeconds = 0) => ({ count, lastAt: new Date(at(lastSeconds)) });

describe("sign-in slow-down per client address and e-mail", () => {
  it("lets three failures pass, then doubles the wait up to five minutes", () => {
    expect(waits(SIGN_IN_PER_ADDRESS_AND_EMAIL, [0, 1, 2])).toEqual([0, 0, 0]);
    expect(waits(SIGN_IN_PER_ADDRESS_AND_EMAIL, [3, 4, 5, 6])).toEqual([2, 4, 8, 16]);
    expect(waitSeconds(SIGN_IN_PER_ADDRESS_AND_EMAIL, 30)).toBe(300);
  });
});

describe("sign-in slow-down per client address (spraying one password over many e-mails)", () => {
  it("lets twenty failures pass, then doubles the wait up to five minutes", () => {
    expect(waits(SIGN_IN_PER_ADDRESS, [0, 10, 19])).toEqual([0, 0, 0]);
    expect(waits(SIGN_IN_PER_ADDRESS, [20, 21, 22])).toEqual([2, 4, 8]);
    expect(waitSeconds(SIGN_IN_PER_ADDRESS, 100)).toBe(300);
  });
});

describe("sign-ups per client address", () => {
  it("lets the configured number pass, then doubles the wait up to an hour", () => {
    const policy = signUpPerAddress(5);
    expect(waits(policy, [0, 4])).toEqual([0, 0]);
    expect(waits(policy, [5, 6, 7])).toEqual([2, 4, 8]);
    expect(waitSeconds(policy, 40)).toBe(3600);
  });
});

describe("the wait left and the count", () => {
  const policy = SIGN_IN_PER_ADDRESS_AND_EMAIL;

  it("counts the wait from the last event, rounded up to whole seconds", () => {
    expect(secondsLeft(policy, undefined, at(0))).toBe(0);
    expect(secondsLeft(policy, row(2), at(0))).toBe(0);
    expect(secondsLeft(policy, row(5), at(0))).toBe(8);
    expect(secondsLeft(policy, row(5), at(7.5))).toBe(1);
    expect(secondsLeft(policy, row(5), at(8))).toBe(0);
    expect(secondsLeft(policy, row(50), at(299))).toBe(1);
  });

  it("forgets a key quiet for forgetAfterSeconds: its next event counts as the first", () => {
    const forget = policy.forgetAfterSeconds;
    expect(countAfterEvent(policy, undefined, at(0))).toBe(1);
    expect(countAfterEvent(policy, row(7), at(forget - 1))).toBe(8);
    expect(countAfterEvent(policy, row(7), at(forget))).toBe(1);
    expect(secondsLeft({ ...policy, maxWaitSeconds: 10 * forget }, row(40), at(forget))).toBe(0);
  });
});
