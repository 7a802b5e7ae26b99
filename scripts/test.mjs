// `npm test`: format check, lint, type check, build, unit and service tests (embedded database, then
// PostgreSQL when X3D_TEST_DATABASE_URL is set), the kill -9 chaos suite, browser tests. Ends with one line
// "N passed, N failed" over every suite.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "x3d-reports-"));
let passed = 0;
let failed = 0;
const summary = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  return { ok: r.status === 0, seconds };
}

/** A step that is one check (lint, types, build). */
function check(label, cmd, args) {
  const { ok, seconds } = run(label, cmd, args);
  if (ok) passed++;
  else failed++;
  summary.push(`${label}: ${ok ? "ok" : "FAILED"} (${seconds} s)`);
  return ok;
}

function vitest(label, args, env) {
  const out = path.join(reports, `${label.replace(/\W+/g, "-")}.json`);
  const { ok, seconds } = run(
    label,
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...args],
    env,
  );
  count(label, out, ok, seconds, (r) => [r.numPassedTests, r.numFailedTests]);
}

function count(label, file, ok, seconds, read) {
  let p = 0;
  let f = 0;
  try {
    [p, f] = read(JSON.parse(fs.readFileSync(file, "utf8")));
  } catch {
    f = 1; // the runner died before reporting
  }
  if (!ok && f === 0) f = 1;
  passed += p;
  failed += f;
  summary.push(`${label}: ${p} passed, ${f} failed (${seconds} s)`);
}

check("format (prettier --check)", bin("prettier"), ["--check", "--log-level=warn", "."]);
check("lint", bin("eslint"), ["."]);
check("type check", bin("tsc"), ["--noEmit"]);
// Built with the browser tests' credentials in the environment: e2e/secrets.spec.ts looks for them in the output.
const canary = JSON.parse(fs.readFileSync(path.join(root, "e2e/canary.json"), "utf8"));
process.env.X3D_CLIENT_ID = canary.clientId;
process.env.X3D_CLIENT_SECRET = canary.clientSecret;
const built = check("build", "npm", ["run", "build"]);
delete process.env.X3D_CLIENT_ID;
delete process.env.X3D_CLIENT_SECRET;

if (built) {
  // Emptied for this run: the harness (and CI's environment) would otherwise put it on PostgreSQL too.
  vitest("unit and service tests (embedded PGlite)", [], { X3D_TEST_DATABASE_URL: "" });
  if (process.env.X3D_TEST_DATABASE_URL) {
    // The service tests whose outcome can depend on the database. Left out (they run on PGlite
    // above): the fuzz (about a minute, input handling before any write), the headers and
    // upload-limit checks, and the client-bundle scan, none of which reads a table differently.
    const pgOnlyOnce = ["fuzz", "security-headers", "upload-limits", "client-bundle"].flatMap((n) => [
      "--exclude",
      `test/service/${n}.test.ts`,
    ]);
    vitest(
      "service tests (PostgreSQL)",
      ["test/service", "lib/db/migrate-postgres.test.ts", "lib/credits", "lib/auth/accounts.test.ts", ...pgOnlyOnce],
      {},
    );
  } else {
    summary.push("service tests (PostgreSQL): skipped, X3D_TEST_DATABASE_URL not set");
  }
  // About a minute per database on two cores; PostgreSQL's half runs when X3D_TEST_DATABASE_URL is set.
  vitest("chaos: kill -9 while tasks run (npm run test:chaos)", ["--mode", "chaos"]);
  const out = path.join(reports, "playwright.json");
  const { ok, seconds } = run("browser tests (Playwright)", bin("playwright"), ["test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  count("browser tests", out, ok, seconds, (r) => [r.stats.expected + r.stats.flaky, r.stats.unexpected]);
}

console.log(`\n=== summary\n${summary.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
