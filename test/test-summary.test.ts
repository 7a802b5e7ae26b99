// npm test's last line counts distinct test cases (scripts/test-summary.mjs), from the runners' JSON reports.
import { describe, expect, it } from "vitest";
import { CaseTally, playwrightCases, vitestCases } from "../scripts/test-summary.mjs";

const vitestReport = (files: { name: string; status?: string; tests: [string, string][] }[]) => ({
  testResults: files.map((f) => ({
    name: `/repo/${f.name}`,
    status: f.status ?? "passed",
    assertionResults: f.tests.map(([fullName, status]) => ({ fullName, status })),
  })),
});

describe("counting distinct test cases", () => {
  it("counts a case run on both databases once: passed if it passed, failed if either run failed, skipped only if never run", () => {
    const tally = new CaseTally();
    tally.add(
      vitestCases(
        vitestReport([
          {
            name: "test/service/a.test.ts",
            tests: [
              ["a works", "passed"],
              ["a on PG only", "skipped"],
              ["a breaks on PG", "passed"],
            ],
          },
          {
            name: "lib/b.test.ts",
            tests: [
              ["b", "passed"],
              ["b never runs", "skipped"],
            ],
          },
        ]),
        "/repo",
      ),
    );
    tally.add(
      vitestCases(
        vitestReport([
          {
            name: "test/service/a.test.ts",
            tests: [
              ["a works", "passed"],
              ["a on PG only", "passed"],
              ["a breaks on PG", "failed"],
            ],
          },
        ]),
        "/repo",
      ),
    );
    expect(tally.totals()).toEqual({ passed: 3, failed: 1, skipped: 1 });
  });

  it("a test file that did not load is one failed case", () => {
    const cases = vitestCases(vitestReport([{ name: "lib/broken.test.ts", status: "failed", tests: [] }]), "/repo");
    expect(cases).toEqual([["lib/broken.test.ts (did not load)", "failed"]]);
  });

  it("reads Playwright's nested suites: flaky passed, unexpected failed, skipped skipped", () => {
    const report = {
      suites: [
        {
          title: "a.spec.ts",
          file: "a.spec.ts",
          specs: [{ title: "top", file: "a.spec.ts", tests: [{ status: "expected", projectName: "" }] }],
          suites: [
            {
              title: "group",
              file: "a.spec.ts",
              specs: [
                { title: "flaky one", file: "a.spec.ts", tests: [{ status: "flaky", projectName: "" }] },
                { title: "broken", file: "a.spec.ts", tests: [{ status: "unexpected", projectName: "" }] },
                { title: "skipped", file: "a.spec.ts", tests: [{ status: "skipped", projectName: "" }] },
              ],
            },
          ],
        },
      ],
    };
    const cases = playwrightCases(report);
    expect(cases).toEqual([
      ["a.spec.ts > top []", "passed"],
      ["a.spec.ts > group > flaky one []", "passed"],
      ["a.spec.ts > group > broken []", "failed"],
      ["a.spec.ts > group > skipped []", "skipped"],
    ]);
    const tally = new CaseTally();
    tally.add(cases);
    expect(tally.totals()).toEqual({ passed: 2, failed: 1, skipped: 1 });
  });
});
