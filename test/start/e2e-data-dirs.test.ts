// The browser tests' server data folders (playwright.config.ts, runDataDir): made per run, gone
// when Playwright exits. Kept, two runs' worth (up to 800 MB each) once filled a CI disk.
// `playwright test --list` loads the config as a run does, without starting the servers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "@/test/harness/temp-dir";

const root = path.resolve(import.meta.dirname, "../..");
const tmp = tempDir("e2e-data-dirs");

function listTests(env: Record<string, string>) {
  const run = spawnSync(process.execPath, [path.join(root, "node_modules/@playwright/test/cli.js"), "test", "--list"], {
    cwd: root,
    env: { ...process.env, TMPDIR: tmp, ...env },
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/Total: \d+ tests in \d+ files/);
}

const dataFolders = () => fs.readdirSync(tmp).filter((name) => name.startsWith("x3d-e2e-"));

describe("the browser tests' data folders", () => {
  it("are removed when Playwright exits", () => {
    listTests({});
    expect(dataFolders()).toEqual([]);
  });

  it("are left alone when given (the same folder reaches Playwright's workers this way)", () => {
    const given = path.join(tmp, "x3d-e2e-given");
    const live = path.join(tmp, "x3d-e2e-live-given");
    fs.mkdirSync(given);
    fs.mkdirSync(live);
    listTests({ X3D_E2E_DATA_DIR: given, X3D_E2E_LIVE_DATA_DIR: live });
    expect(dataFolders().sort()).toEqual(["x3d-e2e-given", "x3d-e2e-live-given"]);
  });
});
