// `npm test`: format check, lint, import rules, unused code, type check, build, unit and service tests (embedded database, then
// PostgreSQL when X3D_TEST_DATABASE_URL is set), the kill -9 chaos suite, browser tests. Prints each
// step and each run on its own line, then ends with one line "N passed, N failed" over distinct test
// cases (scripts/test-summary.mjs: a case run on both databases counts once; steps are not cases).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CaseTally, playwrightCases, vitestCases } from "./test-summary.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "x3d-reports-"));
const tally = new CaseTally();
const failedSteps = [];
const summary = [];

/**
 * Runs a step. Its output goes straight to the terminal, or, with `quiet` (a step running beside
 * another), is held back and printed in one piece when it ends.
 */
function run(label, cmd, args, env = {}, quiet = false) {
  if (!quiet) console.log(`\n=== ${label}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", env: { ...process.env, ...env } });
    let out = "";
    child.stdout?.on("data", (d) => (out += d));
    child.stderr?.on("data", (d) => (out += d));
    const done = (ok) => {
      if (quiet) console.log(`\n=== ${label}\n${out}`);
      resolve({ ok, seconds: ((Date.now() - started) / 1000).toFixed(0) });
    };
    child.on("error", (error) => {
      out += `${error.message}\n`;
      done(false);
    });
    child.on("close", (code) => done(code === 0));
  });
}

/** A step that is one check (lint, types, build); its summary line is added by `record`, in the order given there. */
async function check(label, cmd, args, quiet = false, env = {}) {
  const { ok, seconds } = await run(label, cmd, args, env, quiet);
  if (!ok) failedSteps.push(label);
  return { label, ok, seconds };
}

function record(...checks) {
  for (const { label, ok, seconds } of checks) summary.push(`step ${label}: ${ok ? "ok" : "FAILED"} (${seconds} s)`);
}

async function vitest(label, args, env) {
  const out = path.join(reports, `${label.replace(/\W+/g, "-")}.json`);
  const { ok, seconds } = await run(
    label,
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...args],
    env,
  );
  count(label, out, ok, seconds, (r) => vitestCases(r, root));
}

/** Adds a run's cases to the tally and its own line to the summary. */
function count(label, file, ok, seconds, read) {
  let cases;
  try {
    cases = read(JSON.parse(fs.readFileSync(file, "utf8")));
  } catch {
    cases = [];
  }
  // A runner that failed without a failing case (it died, or reported nothing) is one failed case.
  if (!ok && !cases.some(([, status]) => status === "failed")) cases.push([`${label} (the runner failed)`, "failed"]);
  tally.add(cases);
  const n = (status) => cases.filter(([, s]) => s === status).length;
  summary.push(`${label}: ${n("passed")} passed, ${n("failed")} failed, ${n("skipped")} skipped (${seconds} s)`);
}

// Format and lint read only the sources, so they run beside the type check and the build, their
// output held back. The type check and the build go in turn: the build rewrites .next/types,
// which the type check reads.
const sourceChecks = (async () => [
  await check("format (prettier --check)", bin("prettier"), ["--check", "--log-level=warn", "."], true),
  await check("lint", bin("eslint"), ["."], true),
  await check(
    "import rules (dependency-cruiser)",
    bin("depcruise"),
    ["--config", ".dependency-cruiser.cjs", "--output-type", "err", "."],
    true,
  ),
  await check("unused files and exports (knip)", bin("knip"), ["--no-config-hints"], true),
])();
const types = await check("type check", bin("tsc"), ["--noEmit"]);
// Built with the browser tests' credentials in the environment: e2e/secrets.spec.ts looks for them in the output.
const canary = JSON.parse(fs.readFileSync(path.join(root, "e2e/canary.json"), "utf8"));
const build = await check("build", "npm", ["run", "build"], false, {
  X3D_CLIENT_ID: canary.clientId,
  X3D_CLIENT_SECRET: canary.clientSecret,
});
record(...(await sourceChecks), types, build);
const built = build.ok;

/**
 * Left out of the S3 run (they run on disk above), for reading nothing of storage: the fuzz
 * (input handling before anything is stored), the header and upload-limit checks, the
 * client-bundle scan and sign-in throttling.
 */
const S3_LEAVES_OUT = ["fuzz", "security-headers", "upload-limits", "client-bundle", "sign-in-throttle"].flatMap((n) => [
  "--exclude",
  `test/service/${n}.test.ts`,
]);

/** Runs `body` with s3rver serving one empty bucket on a free port, and the environment that points the app at it. */
async function withS3(body) {
  const { default: S3rver } = await import("s3rver");
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "x3d-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: "x3d-test" }] });
  const { port } = await server.run();
  try {
    await body({
      X3D_TEST_S3: "s3://x3d-test",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      AWS_REGION: "us-east-1",
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
      X3D_S3_FORCE_PATH_STYLE: "1",
    });
  } finally {
    await server.close();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

if (built) {
  // Emptied for this run: the harness (and CI's environment) would otherwise put it on PostgreSQL too.
  await vitest("unit and service tests (embedded PGlite)", [], { X3D_TEST_DATABASE_URL: "" });
  if (process.env.X3D_TEST_DATABASE_URL) {
    // The service tests whose outcome can depend on the database. Left out (they run on PGlite
    // above): the fuzz (about a minute, input handling before any write), the headers and
    // upload-limit checks, and the client-bundle scan, none of which reads a table differently.
    const pgOnlyOnce = ["fuzz", "security-headers", "upload-limits", "client-bundle"].flatMap((n) => [
      "--exclude",
      `test/service/${n}.test.ts`,
    ]);
    await vitest(
      "service tests (PostgreSQL)",
      [
        "test/service",
        "lib/db/migrate-postgres.test.ts",
        "lib/credits",
        "lib/accounts/accounts.test.ts",
        "lib/accounts/sign-in.test.ts",
        "lib/ops/backup.test.ts",
        ...pgOnlyOnce,
      ],
      {},
    );
  } else {
    summary.push("service tests (PostgreSQL): skipped, X3D_TEST_DATABASE_URL not set");
  }
  // The service tests a third time with every stored file of both faces in an S3-compatible
  // bucket (s3rver, started here as CI starts PostgreSQL), on PostgreSQL when it is there.
  await withS3(async (env) => {
    await vitest("service tests (S3 storage)", ["test/service", ...S3_LEAVES_OUT], env);
    // The kill -9 suite once with its files in the bucket (on the embedded database).
    await vitest("chaos on S3 storage", ["--mode", "chaos", "test/chaos/pglite.test.ts"], env);
  });
  // About a minute; the PGlite and PostgreSQL halves (the latter when X3D_TEST_DATABASE_URL is set) run at the same time.
  await vitest("chaos: kill -9 while tasks run (npm run test:chaos)", ["--mode", "chaos"]);
  const out = path.join(reports, "playwright.json");
  const { ok, seconds } = await run("browser tests (Playwright)", bin("playwright"), ["test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  count("browser tests", out, ok, seconds, playwrightCases);
}

const { passed, failed, skipped } = tally.totals();
console.log(`\n=== summary\n${summary.join("\n")}`);
if (process.env.X3D_TEST_DATABASE_URL && built)
  console.log("(the PostgreSQL run repeats cases of the first run: each case is counted once below, failed if it failed in either)");
if (skipped) console.log(`${skipped} case(s) skipped in every run`);
if (failedSteps.length) console.log(`FAILED steps (not test cases): ${failedSteps.join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
fs.rmSync(reports, { recursive: true, force: true });
process.exit(failed === 0 && failedSteps.length === 0 ? 0 : 1);
