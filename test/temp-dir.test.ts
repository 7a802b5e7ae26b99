// test/harness/temp-dir.ts and test/setup/temp-root.ts: test files' temporary folders are removed
// after their tests, and a run whose files leave one behind fails.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDataDir, tempDir } from "@/test/harness/temp-dir";
import setupTempRoot, { leftovers, removeStaleRoots } from "@/test/setup/temp-root";

let made = "";
let madeData = "";
describe("a describe with its own temporary folders", () => {
  made = tempDir("temp-dir-check");
  madeData = tempDataDir("temp-data-dir-check");

  it("has them while its tests run, and DATA_DIR names the data folder", () => {
    expect(fs.statSync(made).isDirectory()).toBe(true);
    expect(process.env.DATA_DIR).toBe(madeData);
    expect(path.basename(made)).toMatch(/^x3d-temp-dir-check-/);
  });
});

describe("after that describe's tests", () => {
  it("both folders are gone", () => {
    expect(fs.existsSync(made)).toBe(false);
    expect(fs.existsSync(madeData)).toBe(false);
  });
});

describe("the run's temporary root", () => {
  const exitCode = process.exitCode;
  afterEach(() => {
    process.exitCode = exitCode;
    vi.restoreAllMocks();
  });

  it("is TMPDIR while the run lasts, and is removed with the run", () => {
    const before = process.env.TMPDIR;
    const teardown = setupTempRoot();
    const root = process.env.TMPDIR!;
    expect(root).not.toBe(before);
    expect(leftovers(root)).toEqual([]);
    teardown();
    expect(fs.existsSync(root)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
    expect(process.exitCode).toBe(exitCode);
  });

  it("fails the run, naming what was left behind", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const teardown = setupTempRoot();
    const root = process.env.TMPDIR!;
    fs.mkdirSync(path.join(root, "x3d-forgotten-abc"));
    fs.writeFileSync(path.join(root, "stray.txt"), "");
    fs.mkdirSync(path.join(root, "tsx-0")); // tsx's compile cache: a tool's, not a test file's
    teardown();
    expect(process.exitCode).toBe(1);
    expect(String(error.mock.calls[0]?.[0])).toContain("left 2 temporary entries behind: stray.txt, x3d-forgotten-abc");
    expect(fs.existsSync(root)).toBe(false);
  });
});

describe("run folders of runs killed before their teardown", () => {
  const tmp = tempDir("stale-roots");

  it("are removed when their process is gone, and only then", () => {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    for (const name of [`x3d-vitest-${dead}-aaaa`, `x3d-vitest-${process.pid}-bbbb`, "x3d-vitest-cccc", "x3d-other-1-dddd"])
      fs.mkdirSync(path.join(tmp, name));
    fs.writeFileSync(path.join(tmp, `x3d-vitest-${dead}-aaaa`, "left.txt"), "");
    expect(removeStaleRoots(tmp)).toEqual([`x3d-vitest-${dead}-aaaa`]);
    expect(fs.readdirSync(tmp).sort()).toEqual(["x3d-other-1-dddd", `x3d-vitest-${process.pid}-bbbb`, "x3d-vitest-cccc"].sort());
  });

  it("are named by the run's process, so the next run can tell", () => {
    const teardown = setupTempRoot();
    const root = process.env.TMPDIR!;
    expect(path.basename(root)).toMatch(new RegExp(`^x3d-vitest-${process.pid}-`));
    teardown();
  });
});
