// Test helpers live in `*.test-helpers.ts` beside the code they serve, or under test/
// (docs/style.md), so that the import rules (.dependency-cruiser.cjs: not-to-test) know them as
// test code: a file named like the old helpers (`testing.ts`, `test-fixtures.ts`) would pass for
// production code, and production code could import it unseen.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SKIP_DIRS = new Set([
  "node_modules",
  ".next",
  ".build",
  ".git",
  "data",
  "public",
  "test-results",
  "playwright-report",
  ".stryker-tmp",
  "reports",
]);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) sourceFiles(path.join(dir, entry.name), out);
    } else if (SOURCE.test(entry.name)) {
      out.push(path.relative(ROOT, path.join(dir, entry.name)).split(path.sep).join("/"));
    }
  }
  return out;
}

/** Tests, test helpers, the test folders, and the test tools' own configuration. */
function isTestCode(file: string): boolean {
  return (
    /\.(test|spec)\.[cm]?[jt]sx?$/.test(file) ||
    /\.test-helpers\.[cm]?[jt]sx?$/.test(file) ||
    file.startsWith("test/") ||
    file.startsWith("e2e/") ||
    file === "vitest.config.ts" ||
    file === "vitest.mutation.config.ts" ||
    file === "stryker.config.mjs" ||
    file === "playwright.config.ts"
  );
}

describe("test helpers", () => {
  it("test helpers are named *.test-helpers.ts", () => {
    const helpers = sourceFiles(path.join(ROOT, "lib")).filter((f) => /\.test-helpers\.ts$/.test(f));
    expect(helpers.length).toBeGreaterThan(0);
    // Files named like the old helpers (`testing.ts`, `test-fixtures.ts`) sit among production code.
    const misplaced = sourceFiles(ROOT).filter((f) => /(^|\/)(testing|test-fixtures|test-utils)\.[cm]?[jt]sx?$/.test(f) && !isTestCode(f));
    expect(misplaced).toEqual([]);
  });
});
