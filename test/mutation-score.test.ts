// npm run test:mutation's figures (scripts/mutation-score.mjs, scripts/mutation-folders.mjs).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MUTATION_RUNS, runsNamed } from "../scripts/mutation-folders.mjs";
import { mutationTally, reportFile } from "../scripts/mutation-score.mjs";

const report = (statuses: string[]) => ({ files: { "lib/a.ts": { mutants: statuses.map((status, i) => ({ id: `${i}`, status })) } } });

describe("mutation score", () => {
  it("is detected (killed, timed out) over valid mutants (detected, survived, no coverage), as Stryker counts it", () => {
    const t = mutationTally(report(["Killed", "Killed", "Timeout", "Survived", "NoCoverage", "Ignored", "CompileError", "RuntimeError"]));
    expect(t).toEqual({ killed: 2, timeout: 1, survived: 1, noCoverage: 1, ignored: 1, errors: 2, total: 5, score: 60 });
  });
  it("is 100 with no valid mutant (a file of ignored statics), not NaN", () => {
    expect(mutationTally(report(["Ignored"])).score).toBe(100);
  });
  it("is read from the committed incremental file, so a fresh clone (no last report) has it", () => {
    const has =
      (...files: string[]) =>
      (f: string) =>
        files.includes(f);
    const inc = "reports/mutation/tasks.incremental.json",
      last = "reports/mutation/tasks.json";
    expect(reportFile("tasks", has(inc))).toBe(inc);
    expect(reportFile("tasks", has(inc, last))).toBe(inc);
    expect(reportFile("tasks", has(last))).toBe(last);
    expect(reportFile("tasks", has())).toBeUndefined();
  });
});

describe("mutation runs", () => {
  const root = path.resolve(import.meta.dirname, "..");
  const sources = (folder: string) =>
    fs
      .readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts") && !/\.test(-helpers)?\.ts$/.test(f))
      .map((f) => `${folder}/${f.split(path.sep).join("/")}`);

  it("mutate every source file of lib/engine/generate exactly once, and name only files that exist", () => {
    const listed = Object.values(MUTATION_RUNS)
      .filter((r) => r.folder === "lib/engine/generate")
      .flatMap((r) => r.mutate);
    expect([...listed].sort()).toEqual(sources("lib/engine/generate").sort());
    for (const run of Object.values(MUTATION_RUNS))
      for (const t of run.tests.filter((t) => !t.includes("*"))) expect(fs.existsSync(path.join(root, t)), t).toBe(true);
  });
  it("judge lib/engine/generate by every one of its test files (a file no run lists tests nothing)", () => {
    const judging = new Set(
      Object.values(MUTATION_RUNS)
        .filter((r) => r.folder === "lib/engine/generate")
        .flatMap((r) => r.tests),
    );
    const tests = fs
      .readdirSync(path.join(root, "lib/engine/generate"))
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => `lib/engine/generate/${f}`);
    expect(tests.filter((t) => !judging.has(t))).toEqual([]);
  });
  it("take a folder's short name for all its runs, or one run's name", () => {
    expect(runsNamed("tasks")).toEqual(["tasks"]);
    expect(runsNamed("generate-split")).toEqual(["generate-split"]);
    expect(runsNamed("generate")!.length).toBe(Object.values(MUTATION_RUNS).filter((r) => r.folder === "lib/engine/generate").length);
    expect(runsNamed("engine")).toBeUndefined();
  });
});
