// npm run test:mutation [-- <folder> ...] [-- --readme]
//
// Runs StrykerJS over each folder issue 15 names (all four unless some are named: x3d,
// validate, generate, tasks), one run per folder with its own incremental file under
// reports/mutation, then prints the mutation score of each folder and fails when one is
// under 80%. `--readme` writes the table into the README between its markers.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { MUTATION_FOLDERS } from "./mutation-folders.mjs";
import { mutationTally } from "./mutation-score.mjs";

const THRESHOLD = 80;
const args = process.argv.slice(2);
const writeReadme = args.includes("--readme");
const reportOnly = args.includes("--report-only");
const names = args.filter((a) => !a.startsWith("--"));
for (const n of names) {
  if (!MUTATION_FOLDERS[n]) {
    console.error(`unknown folder "${n}": one of ${Object.keys(MUTATION_FOLDERS).join(", ")}`);
    process.exit(2);
  }
}
const chosen = names.length > 0 ? names : Object.keys(MUTATION_FOLDERS);

const rows = [];
for (const name of chosen) {
  const started = Date.now();
  if (!reportOnly) {
    const run = spawnSync("npx", ["stryker", "run", "stryker.config.mjs"], {
      stdio: "inherit",
      env: { ...process.env, X3D_MUTATE: name },
    });
    if (run.status !== 0) {
      console.error(`stryker failed on ${name} (exit ${run.status})`);
      process.exit(1);
    }
  }
  const report = JSON.parse(readFileSync(`reports/mutation/${name}.json`, "utf8"));
  rows.push({ name, folder: MUTATION_FOLDERS[name], seconds: (Date.now() - started) / 1000, ...mutationTally(report) });
}

const lines = [
  "| folder | score | killed | timed out | survived | no coverage | mutants |",
  "|---|---|---|---|---|---|---|",
  ...rows.map(
    (r) => `| \`${r.folder}\` | ${r.score.toFixed(1)}% | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.noCoverage} | ${r.total} |`,
  ),
];
console.log(`\n${lines.join("\n")}`);
for (const r of rows) if (!reportOnly) console.log(`${r.folder}: ${r.seconds.toFixed(0)} s`);

if (writeReadme) {
  const readme = readFileSync("README.md", "utf8");
  const start = "<!-- mutation-scores:start -->";
  const end = "<!-- mutation-scores:end -->";
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) {
    console.error(`README.md has no ${start} … ${end} block`);
    process.exit(2);
  }
  const known = new Map(rows.map((r) => [r.folder, r]));
  // Keep the rows of folders this run did not test.
  const old = readme
    .slice(a + start.length, b)
    .split("\n")
    .filter((l) => l.startsWith("| `"));
  const merged = Object.values(MUTATION_FOLDERS).map((folder) => {
    const r = known.get(folder);
    if (!r) return old.find((l) => l.startsWith(`| \`${folder}\``)) ?? `| \`${folder}\` | not run | | | | | |`;
    return lines.find((l) => l.startsWith(`| \`${folder}\``));
  });
  const table = [lines[0], lines[1], ...merged].join("\n");
  writeFileSync("README.md", `${readme.slice(0, a + start.length)}\n${table}\n${readme.slice(b)}`);
  console.log("README.md: scores written");
}

const low = rows.filter((r) => r.score < THRESHOLD);
if (low.length > 0) {
  console.error(`under ${THRESHOLD}%: ${low.map((r) => `${r.folder} ${r.score.toFixed(1)}%`).join(", ")}`);
  process.exit(1);
}
