// Counting for `npm test`'s last line: distinct test cases, each counted once however many runs
// it was part of (the service tests run on PGlite and again on PostgreSQL). A case fails when any
// run of it failed; it passes when it passed in some run and failed in none; a case skipped in
// every run is neither. Steps (format, lint, type check, build) are not test cases.

/** Cases of a vitest JSON report: [id, "passed" | "failed" | "skipped"]. */
export function vitestCases(report, root) {
  const out = [];
  for (const file of report.testResults ?? []) {
    const name = root && file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const results = file.assertionResults ?? [];
    for (const test of results) {
      const status = test.status === "passed" ? "passed" : test.status === "failed" ? "failed" : "skipped";
      out.push([`${name} > ${test.fullName}`, status]);
    }
    // A file that failed to load has no cases: count it as one failed case.
    if (results.length === 0 && file.status === "failed") out.push([`${name} (did not load)`, "failed"]);
  }
  return out;
}

/** Cases of a Playwright JSON report (every test of every spec, per project). */
export function playwrightCases(report) {
  const out = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const status = test.status === "expected" || test.status === "flaky" ? "passed" : test.status === "skipped" ? "skipped" : "failed";
        out.push([`${spec.file ?? suite.file} > ${[...titles, spec.title].join(" > ")} [${test.projectName ?? ""}]`, status]);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return out;
}

/** Distinct cases over runs: { passed, failed, skipped } counts. */
export class CaseTally {
  cases = new Map();

  add(cases) {
    for (const [id, status] of cases) {
      const seen = this.cases.get(id) ?? { passed: false, failed: false };
      if (status === "passed") seen.passed = true;
      if (status === "failed") seen.failed = true;
      this.cases.set(id, seen);
    }
  }

  totals() {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const { passed: p, failed: f } of this.cases.values()) {
      if (f) failed++;
      else if (p) passed++;
      else skipped++;
    }
    return { passed, failed, skipped };
  }
}
