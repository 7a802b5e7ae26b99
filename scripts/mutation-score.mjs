// Stryker's mutation score from its JSON report (mutation-testing-report-schema): detected
// (killed, timed out) over valid mutants (detected, survived, no coverage). Ignored mutants,
// compile and runtime errors count in neither, as in Stryker's own table.
export function mutationTally(report) {
  const t = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 };
  for (const file of Object.values(report.files)) {
    for (const m of file.mutants) {
      if (m.status === "Killed") t.killed++;
      else if (m.status === "Timeout") t.timeout++;
      else if (m.status === "Survived") t.survived++;
      else if (m.status === "NoCoverage") t.noCoverage++;
      else if (m.status === "Ignored") t.ignored++;
      else t.errors++;
    }
  }
  const valid = t.killed + t.timeout + t.survived + t.noCoverage;
  return { ...t, total: valid, score: valid === 0 ? 100 : (100 * (t.killed + t.timeout)) / valid };
}

/**
 * The report a run's score is read from: its incremental file, which Stryker writes at the end of
 * every run with each mutant's status and which is committed, so a fresh clone prints the table
 * too; else the run's last JSON report (not committed). Undefined when neither exists.
 */
export function reportFile(run, exists) {
  return [`reports/mutation/${run}.incremental.json`, `reports/mutation/${run}.json`].find((f) => exists(f));
}
