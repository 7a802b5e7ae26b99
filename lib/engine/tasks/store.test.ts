import { describe, expect, it, vi } from "vitest";

describe("INSTANCE", () => {
  it("is one per process, however many times the module is loaded (Next.js loads routes and instrumentation as separate bundles)", async () => {
    const first = (await import("./store")).INSTANCE;
    vi.resetModules();
    const second = (await import("./store")).INSTANCE;
    expect(second).toBe(first);
    expect(first).toMatch(new RegExp(`^${process.pid}-[0-9a-f]{8}$`));
  });

  it("names staging folders so the server they belong to can be read back", async () => {
    const { INSTANCE, stagingInstance, stagingName } = await import("./store");
    expect(stagingInstance(stagingName(INSTANCE))).toBe(INSTANCE);
    expect(stagingInstance("a".repeat(24))).toBeUndefined();
    expect(stagingInstance(`${INSTANCE}.x/../y`)).toBeUndefined();
  });
});
