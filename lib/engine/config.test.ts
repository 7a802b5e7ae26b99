import { describe, expect, it } from "vitest";
import { defaultWorkerThreads } from "./config";

describe("defaultWorkerThreads", () => {
  it("leaves one core to the web server", () => {
    expect(defaultWorkerThreads(2)).toBe(1);
    expect(defaultWorkerThreads(8)).toBe(7);
  });
  it("keeps at least one worker on a single core", () => {
    expect(defaultWorkerThreads(1)).toBe(1);
  });
});
