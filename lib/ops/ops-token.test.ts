import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "@/test/harness/temp-dir";

const root = tempDir("ops-token");

/** The module as a fresh server process on `dataDir` sees it (env and module state are per process). */
async function fresh(dataDir: string, token = "") {
  vi.resetModules();
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("X3D_OPS_TOKEN", token);
  return import("./ops-token");
}

beforeEach(() => vi.unstubAllEnvs());

describe("the ops token", () => {
  it("is generated once into DATA_DIR/ops-token, readable by its owner only, and kept", async () => {
    const dir = path.join(root, "fresh");
    const first = (await fresh(dir)).opsToken();
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(fs.statSync(path.join(dir, "ops-token")).mode & 0o777).toBe(0o600);
    expect((await fresh(dir)).opsToken()).toBe(first);
  });

  it("is X3D_OPS_TOKEN when set, and then no file is written", async () => {
    const dir = path.join(root, "configured");
    const ops = await fresh(dir, "configured-token-0123456789");
    expect(ops.opsToken()).toBe("configured-token-0123456789");
    expect(fs.existsSync(path.join(dir, "ops-token"))).toBe(false);
  });

  it("authorizes only `Bearer <token>`", async () => {
    const { opsAuthorized } = await fresh(path.join(root, "check"), "configured-token-0123456789");
    expect(opsAuthorized("Bearer configured-token-0123456789")).toBe(true);
    expect(opsAuthorized("bearer configured-token-0123456789")).toBe(true);
    for (const bad of [
      null,
      "",
      "Bearer",
      "Bearer configured-token-012345678",
      "Bearer configured-token-01234567890",
      "Basic configured-token-0123456789",
    ])
      expect(opsAuthorized(bad), String(bad)).toBe(false);
  });

  it("refuses an empty file with its name, never taking it as the token", async () => {
    const dir = path.join(root, "empty");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "ops-token"), "");
    const ops = await fresh(dir);
    expect(() => ops.opsToken()).toThrow(/ops-token is empty: remove it/);
  });

  it("as X3D_OPS_TOKEN must be at least 16 characters", async () => {
    const { parseServerEnv } = await import("@/lib/env");
    expect(() => parseServerEnv({ X3D_OPS_TOKEN: "short" })).toThrow(/X3D_OPS_TOKEN: must be at least 16 characters/);
    expect(parseServerEnv({ X3D_OPS_TOKEN: "" }).X3D_OPS_TOKEN).toBeUndefined();
  });
});
