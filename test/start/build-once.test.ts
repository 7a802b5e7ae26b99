// `npm start` twice at once in one checkout (two servers on two ports, issue 10): one build.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "@/test/harness/temp-dir";
import { withLock } from "../../scripts/build-once.mjs";

const root = tempDir("build-once");
const buildOnceUrl = pathToFileURL(path.resolve(import.meta.dirname, "../../scripts/build-once.mjs")).href;

/** One `npm start`'s build step, with a 400 ms "build" that leaves `marker` and logs its start and end. */
const START = `
import fs from "node:fs";
import { buildOnce } from ${JSON.stringify(buildOnceUrl)};
const [lockDir, marker, log] = process.argv.slice(1);
await buildOnce({
  lockDir,
  state: () => (fs.existsSync(marker) ? "fresh" : "missing"),
  build: async () => {
    fs.appendFileSync(log, "start " + process.pid + "\\n");
    await new Promise((r) => setTimeout(r, 400));
    fs.writeFileSync(marker, "");
    fs.appendFileSync(log, "end " + process.pid + "\\n");
  },
});
`;

function start(dir: string): Promise<number | null> {
  const child = spawn(
    process.execPath,
    ["--input-type=module", "-e", START, path.join(dir, "lock"), path.join(dir, "built"), path.join(dir, "log")],
    {
      stdio: "ignore",
    },
  );
  return new Promise((resolve) => child.once("exit", resolve));
}

describe("npm start's build step", () => {
  it("three starts at once on a missing build: one builds, the others wait and find it fresh", async () => {
    const dir = fs.mkdtempSync(path.join(root, "race-"));
    expect(await Promise.all([start(dir), start(dir), start(dir)])).toEqual([0, 0, 0]);
    const lines = fs.readFileSync(path.join(dir, "log"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]!.replace("start", "end")).toBe(lines[1]);
    expect(fs.existsSync(path.join(dir, "lock"))).toBe(false);
  });

  it("a lock left by a process that died (killed mid-build) is taken over", async () => {
    const lockDir = path.join(root, "stale-lock");
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    fs.mkdirSync(lockDir);
    fs.writeFileSync(path.join(lockDir, "pid"), dead.stdout);
    expect(await withLock(lockDir, () => "ran")).toBe("ran");
    expect(fs.existsSync(lockDir)).toBe(false);
  });
});
