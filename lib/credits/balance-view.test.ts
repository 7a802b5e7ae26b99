import { describe, expect, it } from "vitest";
import { spendable, type BalanceView } from "./balance-view";

const credits = { allowance: 100, spent: 30, remaining: 70 };

describe("spendable", () => {
  it("an artist may spend what is left of their allowance, even when the service has more", () => {
    expect(spendable({ role: "artist", credits, service: 5000 })).toBe(70);
    expect(spendable({ role: "artist", credits: { ...credits, remaining: -10 } })).toBe(-10);
  });

  it("an admin may spend the service account's balance, not an allowance; unknown when the service did not answer", () => {
    expect(spendable({ role: "admin", credits, service: 5000 })).toBe(5000);
    const unanswered: BalanceView = { role: "admin", credits, serviceError: "the service did not answer" };
    expect(spendable(unanswered)).toBeUndefined();
  });
});
