// npm run test:mutation [-- <name> ...] [--readme] [--report-only]
//
// Runs StrykerJS over the folders issue 15 names: every run of scripts/mutation-folders.mjs,
// or those named (a folder's short name, x3d, validate, generate, tasks, http, credits, accounts, takes all its runs;
// generate-split and the like one run). Each run is incremental, with its own file under
// reports/mutation. Then prints each folder's mutation score, from the reports of all its
// runs, and fails when one is under 80%. `--readme` writes the table into reports/mutation/README.md
// between its markers; `--report-only` prints the table from the last reports without running.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { MUTATION_RUNS, runsNamed } from "./mutation-folders.mjs";
import { mutationTally, reportFile } from "./mutation-score.mjs";

const THRESHOLD = 80;
/** Where `--readme` writes the folder table (between its markers). */
const SCORES_PAGE = "reports/mutation/README.md";
const args = process.argv.slice(2);
const writeReadme = args.includes("--readme");
const reportOnly = args.includes("--report-only");
const names = args.filter((a) => !a.startsWith("--"));
const chosen = [];
for (const n of names.length > 0 ? names : Object.keys(MUTATION_RUNS)) {
  const runs = runsNamed(n);
  if (!runs) {
    console.error(
      `unknown name "${n}": one of ${Object.keys(MUTATION_RUNS).join(", ")}, or x3d, validate, generate, tasks, http, credits, accounts`,
    );
    process.exit(2);
  }
  for (const r of runs) if (!chosen.includes(r)) chosen.push(r);
}

const seconds = {};
for (const name of chosen) {
  if (reportOnly) continue;
  const started = Date.now();
  const run = spawnSync("npx", ["stryker", "run", "stryker.config.mjs"], { stdio: "inherit", env: { ...process.env, X3D_MUTATE: name } });
  if (run.status !== 0) {
    console.error(`stryker failed on ${name} (exit ${run.status})`);
    process.exit(1);
  }
  seconds[name] = (Date.now() - started) / 1000;
}

// A folder's score is over all its runs, so every run of a chosen folder must have a report.
const folders = [...new Set(chosen.map((r) => MUTATION_RUNS[r].folder))];
const rows = [];
for (const folder of folders) {
  const runs = Object.keys(MUTATION_RUNS).filter((r) => MUTATION_RUNS[r].folder === folder);
  const files = new Map(runs.map((r) => [r, reportFile(r, existsSync)]).filter(([, f]) => f));
  const measured = [...files.keys()];
  if (measured.length < runs.length) {
    const missing = runs.filter((r) => !files.has(r));
    console.log(`${folder}: no report yet for ${missing.join(", ")} (npm run test:mutation -- ${missing.join(" ")})`);
  }
  if (measured.length === 0) continue;
  const tallies = measured.map((r) => mutationTally(JSON.parse(readFileSync(files.get(r), "utf8"))));
  const partial = measured.length < runs.length ? `${measured.length} of ${runs.length} runs` : undefined;
  const sum = (k) => tallies.reduce((s, t) => s + t[k], 0);
  const t = {
    killed: sum("killed"),
    timeout: sum("timeout"),
    survived: sum("survived"),
    noCoverage: sum("noCoverage"),
    total: sum("total"),
  };
  rows.push({ folder, partial, ...t, score: t.total === 0 ? 100 : (100 * (t.killed + t.timeout)) / t.total });
}

const line = (r) =>
  `| \`${r.folder}\` | ${r.score.toFixed(1)}%${r.partial ? ` (partial: ${r.partial})` : ""} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.noCoverage} | ${r.total} |`;
const header = ["| folder | score | killed | timed out | survived | no coverage | mutants |", "|---|---|---|---|---|---|---|"];
console.log(`\n${[...header, ...rows.map(line)].join("\n")}`);
for (const [name, s] of Object.entries(seconds)) console.log(`${name}: ${s.toFixed(0)} s`);

if (writeReadme) {
  const readme = readFileSync(SCORES_PAGE, "utf8");
  const start = "<!-- mutation-scores:start -->";
  const end = "<!-- mutation-scores:end -->";
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) {
    console.error(`${SCORES_PAGE} has no ${start} … ${end} block`);
    process.exit(2);
  }
  // Folders this run did not score keep their rows.
  const old = readme.slice(a + start.length, b).split("\n");
  const allFolders = [...new Set(Object.values(MUTATION_RUNS).map((r) => r.folder))];
  const table = allFolders.map((folder) => {
    const r = rows.find((x) => x.folder === folder);
    return r ? line(r) : (old.find((l) => l.startsWith(`| \`${folder}\``)) ?? `| \`${folder}\` | not run | | | | | |`);
  });
  writeFileSync(SCORES_PAGE, `${readme.slice(0, a + start.length)}\n\n${[...header, ...table].join("\n")}\n\n${readme.slice(b)}`);
  spawnSync("npx", ["prettier", "--write", SCORES_PAGE], { stdio: "ignore" });
  console.log(`${SCORES_PAGE}: scores written`);
}

// A partial score proves nothing of the folder: it fails as one under the threshold does.
const low = rows.filter((r) => r.score < THRESHOLD || r.partial);
if (low.length > 0) {
  console.error(
    `under ${THRESHOLD}% or not measured in full: ${low.map((r) => `${r.folder} ${r.score.toFixed(1)}%${r.partial ? ` (${r.partial})` : ""}`).join(", ")}`,
  );
  process.exit(1);
}
