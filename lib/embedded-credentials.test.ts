import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { developmentCredentials } from "./embedded-credentials";
import { tempDir } from "@/test/harness/temp-dir";

describe("developmentCredentials", () => {
  const root = tempDir("credentials");

  it("generates a pair once per data folder and keeps it", () => {
    const dir = path.join(root, "fresh");
    const pair = developmentCredentials(dir);
    expect(pair.clientId).toMatch(/^dev_[0-9a-f]{12}$/);
    expect(pair.clientSecret.length).toBeGreaterThanOrEqual(32);
    expect(developmentCredentials(dir)).toEqual(pair);
  });

  it("a damaged file (empty, as a crash mid-write left it) stops the start with its name, instead of recursing until the stack overflows", () => {
    const dir = path.join(root, "damaged");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "x3d-credentials.json"), "");
    expect(() => developmentCredentials(dir)).toThrow(/x3d-credentials\.json holds no client pair: remove it/);
  });
});
