import { describe, expect, it } from "vitest";
import { CheckFailure, runCheck, runChecks } from "./run-checks";

describe("runChecks", () => {
  it("is ok when every part answers, with each one's time", async () => {
    const health = await runChecks({ a: async () => {}, b: () => new Promise((r) => setTimeout(r, 20)) }, 1000);
    expect(health.status).toBe("ok");
    expect(health.checks.a).toEqual({ ok: true, ms: expect.any(Number) });
    expect(health.checks.b.ms).toBeGreaterThanOrEqual(15);
  });

  it("names the failing part; a CheckFailure's reason is shown, any other error's is not", async () => {
    const errors: [string, unknown][] = [];
    const health = await runChecks(
      {
        good: async () => {},
        known: async () => Promise.reject(new CheckFailure("storage is not writable (EACCES)")),
        internal: async () => Promise.reject(new Error("connect ECONNREFUSED 10.0.0.5:5432 as user admin")),
      },
      1000,
      (part, error) => errors.push([part, error]),
    );
    expect(health.status).toBe("failing");
    expect(health.checks.good.ok).toBe(true);
    expect(health.checks.known).toMatchObject({ ok: false, error: "storage is not writable (EACCES)" });
    expect(health.checks.internal).toMatchObject({ ok: false, error: "check failed" });
    expect(errors.map(([part]) => part).sort()).toEqual(["internal", "known"]);
  });

  it("a part that does not answer within the time limit fails at the limit", async () => {
    const start = Date.now();
    const result = await runCheck(() => new Promise(() => {}), 100);
    expect(Date.now() - start).toBeLessThan(1000);
    expect(result).toMatchObject({ ok: false, error: "no answer within 100 ms" });
    expect(result.ms).toBeGreaterThanOrEqual(95);
  });
});
