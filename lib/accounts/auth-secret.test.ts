import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "@/test/harness/temp-dir";

const root = tempDir("auth-secret");

/** authSecret() as a fresh server process on `dataDir` would see it (env and module state are per process). */
async function freshAuthSecret(dataDir: string): Promise<() => string> {
  vi.resetModules();
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("AUTH_SECRET", "");
  return (await import("./auth-secret")).authSecret;
}

beforeEach(() => vi.unstubAllEnvs());

describe("authSecret without AUTH_SECRET", () => {
  it("is generated once into DATA_DIR/auth-secret and shared by every process on that folder", async () => {
    const dir = path.join(root, "fresh");
    const first = (await freshAuthSecret(dir))();
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await freshAuthSecret(dir))()).toBe(first);
  });

  it("an empty file (a reader's view of a file created but not yet written, or a crash's leftover) is refused with its name, never used as the secret", async () => {
    const dir = path.join(root, "empty");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "auth-secret"), "");
    const authSecret = await freshAuthSecret(dir);
    expect(() => authSecret()).toThrow(/auth-secret is empty: remove it/);
  });
});
