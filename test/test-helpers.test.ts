// Test code stays out of the app: a module the app runs (anything that is not a test, a test
// helper, or under test/ or e2e/) imports neither vitest nor a test helper. Test helpers live
// in `*.test-helpers.ts` beside the code they serve, or under test/ (docs/style.md).
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

/** Every module specifier in `source`: static and dynamic imports, re-exports, require. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) if (match[1] !== undefined) found.push(match[1]);
  return found;
}

/** Why `specifier` is test code the app must not import, or undefined when it is fine. */
function testImport(specifier: string): string | undefined {
  if (specifier === "vitest" || specifier.startsWith("vitest/") || specifier.startsWith("@vitest/")) return "vitest";
  if (/\.test-helpers(\.[cm]?[jt]sx?)?$/.test(specifier)) return "a test helper";
  if (/\.test(\.[cm]?[jt]sx?)?$/.test(specifier)) return "a test file";
  if (/^(@\/|(\.\.\/)+)(test|e2e)\//.test(specifier)) return "the test folders";
  return undefined;
}

describe("test code stays out of the app", () => {
  it("recognises test imports", () => {
    expect(testImport("vitest")).toBe("vitest");
    expect(testImport("vitest/config")).toBe("vitest");
    expect(testImport("./fixtures.test-helpers")).toBe("a test helper");
    expect(testImport("@/lib/display/display.test-helpers.ts")).toBe("a test helper");
    expect(testImport("@/test/harness/server")).toBe("the test folders");
    expect(testImport("../../test/harness/api")).toBe("the test folders");
    expect(testImport("./refresh")).toBeUndefined();
    expect(testImport("@/lib/tasks/test-kinds")).toBeUndefined();
    expect(specifiers(`import a from "x";\nexport { b } from './y';\nimport "z";\nconst c = await import("w");`)).toEqual([
      "x",
      "./y",
      "z",
      "w",
    ]);
  });

  it("no module the app runs imports vitest, a test helper or the test folders", () => {
    const files = sourceFiles(ROOT).filter((f) => !isTestCode(f));
    expect(files).toContain("lib/tasks/lifecycle/refresh.ts");
    const offences: string[] = [];
    for (const file of files) {
      for (const specifier of specifiers(fs.readFileSync(path.join(ROOT, file), "utf8"))) {
        const why = testImport(specifier);
        if (why) offences.push(`${file} imports ${why}: ${specifier}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it("test helpers are named *.test-helpers.ts", () => {
    const helpers = sourceFiles(path.join(ROOT, "lib")).filter((f) => /\.test-helpers\.ts$/.test(f));
    expect(helpers.length).toBeGreaterThan(0);
    // Files named like the old helpers (`testing.ts`, `test-fixtures.ts`) sit among production code.
    const misplaced = sourceFiles(ROOT).filter((f) => /(^|\/)(testing|test-fixtures|test-utils)\.[cm]?[jt]sx?$/.test(f) && !isTestCode(f));
    expect(misplaced).toEqual([]);
  });
});
