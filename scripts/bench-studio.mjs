// `npm run bench:studio`: how the studio feels to its users, measured end to end against the
// built app (`next start`, fresh DATA_DIR on PGlite, the embedded service), with Chromium
// driven by Playwright for the UI and plain HTTP with the session cookie for the rest.
//
//   (1) viewer  the task page's time to first picture and to full detail, against a bare
//               three.js page loading the same GLB (ratios of medians, cold runs, loopback and
//               50 Mbit/s + 20 ms); bytes fetched until full detail; first-load JS (gzip)
//   (2) polls   200 watchers polling 50 running tasks once a second while the service generates:
//               polls/s served, p50/p99 latency, failures, server CPU per poll
//   (3) memory  a ~198 MB GLB uploaded through the texture form and textured: server RSS idle,
//               peak, after; wall time of the chain
//   (4) analysis the viewer's printability counts, thin-wall search, BVH, print files and measuring
//               pick at 200k, 2M and 5M triangles, in Node, beside the code before (no build, no browser)
//   (5) heavy   200 watchers polling five 5M-face studio tasks while they generate, finish and are
//               saved: poll p50/p99 (all, and while a task finishes), main-thread CPU per poll.
//               About 8 minutes a run, so only when asked: --only=heavy
//
// It is a report, not a test: it exits 0 whether the goals are met or not (1 only when it could
// not run at all). Each part runs on its own server and catches its own errors (a MISS with the
// reason). Builds first when the build is missing or older than the sources (like npm start).
//
// Flags: --only=viewer|polls|memory|analysis|heavy (comma-separated list allowed; the default is
// the first four), --runs=N (cold runs per page and network condition in (1), runs of (4) and (5);
// default 3), --budget=SECONDS (default 540: the whole run,
// build excluded; (1) skips runs and (3) stops waiting to stay within it), --no-build (never
// build; use what is there, even when older than the sources).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, cleanupNow, ensureBuild, fmt, log, table } from "./bench-studio/common.mjs";
import { runAnalysis } from "./bench-studio/analysis.mjs";
import { runHeavyPolls } from "./bench-studio/heavy-polls.mjs";
import { runMemory } from "./bench-studio/memory.mjs";
import { runPolls } from "./bench-studio/polls.mjs";
import { launchBrowser } from "./bench-studio/studio.mjs";
import { runViewer } from "./bench-studio/viewer.mjs";

const PARTS = ["viewer", "polls", "memory", "analysis", "heavy"];
/** Without --only: every part but (5), which takes minutes a run. */
const DEFAULT_PARTS = PARTS.filter((p) => p !== "heavy");
/** Seconds kept free for the parts after (1): (2) takes about 90 s, (3) at least 240 s. */
const RESERVE = { polls: 100, memory: 240 };

function parseArgs(argv) {
  const args = { only: DEFAULT_PARTS, runs: 3, build: true, budget: 540 };
  for (const a of argv) {
    const [k, v] = a.replace(/^--/, "").split("=");
    if (k === "only") {
      const list = (v ?? "").split(",").filter(Boolean);
      const bad = list.filter((p) => !PARTS.includes(p));
      if (!list.length || bad.length) throw new Error(`--only takes ${PARTS.join("|")} (got ${v})`);
      args.only = list;
    } else if (k === "runs") {
      args.runs = Number(v);
      if (!Number.isInteger(args.runs) || args.runs < 1) throw new Error(`--runs takes a whole number ≥ 1 (got ${v})`);
    } else if (k === "budget") {
      args.budget = Number(v);
      if (!Number.isFinite(args.budget) || args.budget < 60) throw new Error(`--budget takes seconds ≥ 60 (got ${v})`);
    } else if (k === "no-build") args.build = false;
    else if (k === "help" || k === "h") {
      console.log("usage: npm run bench:studio -- [--only=viewer|polls|memory|analysis|heavy] [--runs=N] [--budget=SECONDS] [--no-build]");
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
  }
  return args;
}

async function main() {
  const started = performance.now();
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
  process.on("exit", cleanupNow);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(sig, () => {
      console.error(`\n${sig}: stopping servers and the browser, removing temp data`);
      cleanupNow();
      process.exit(130);
    });
  }

  log("bench:studio");
  // The analysis part runs the viewer's code in Node: it needs neither the build nor a browser.
  const app = args.only.some((p) => p !== "analysis");
  let build = "not needed";
  try {
    if (app) build = ensureBuild({ allowStale: !args.build });
  } catch (e) {
    console.error(`bench:studio could not build: ${e.message}`);
    process.exit(1);
  }
  const measureStart = performance.now();
  const buildId = app ? fs.readFileSync(path.join(ROOT, ".next/BUILD_ID"), "utf8").trim() : "—";
  const { browser, which } = app
    ? await launchBrowser().catch((e) => {
        console.error(`bench:studio could not start Chromium: ${e.message}`);
        process.exit(1);
      })
    : { browser: null, which: "no browser" };
  const cpus = os.cpus();
  const load = () =>
    os
      .loadavg()
      .map((l) => fmt(l, 2))
      .join(" ");
  log(
    `environment: ${cpus.length} cores (${cpus[0]?.model?.trim() ?? "?"}), ${fmt(os.totalmem() / 2 ** 30, 0)} GB RAM, node ${process.version}, ${which}, ${os.type()} ${os.release()}; load average ${load()}`,
  );
  log(`build ${buildId} (${build}) in ${ROOT}; parts: ${args.only.join(", ")}; ${args.runs} cold runs per page and condition in (1)`);
  log("sizes: kB = 1024 bytes, MB = 1024 kB; times from navigation start (performance.now()) unless said otherwise");

  const rows = [];
  const notes = [];
  // The whole run stays under 10 minutes: (1)'s runs stop early when the later parts would not
  // fit, and (3) waits for its chain only as long as the budget allows.
  const deadline = measureStart + args.budget * 1000;
  const reserve = { viewer: 0, polls: 0, memory: 0 };
  if (args.only.includes("polls")) reserve.viewer += RESERVE.polls;
  if (args.only.includes("memory")) reserve.viewer += RESERVE.memory;
  if (args.only.includes("memory")) reserve.polls += RESERVE.memory;
  const parts = {
    viewer: () => runViewer({ browser, runs: args.runs, deadline: deadline - reserve.viewer * 1000 }),
    polls: () => runPolls({ browser }),
    memory: () => runMemory({ browser, deadline }),
    analysis: () => runAnalysis({ runs: args.runs }),
    // Its runs are minutes each: the budget does not cut them, but no run starts after it.
    heavy: () => runHeavyPolls({ browser, runs: args.runs, deadline }),
  };
  const fallback = {
    viewer: [
      "first picture, task/bare, loopback, every run",
      "first picture, task/bare, loopback (medians)",
      "full detail, task/bare, loopback",
      "full detail, task/bare, throttled",
      "bytes fetched until full detail (task page)",
      "JS fetched in all, GLB task page (compressed)",
      "first-load JS of the task page (gzip)",
    ],
    polls: ["polls/s served", "poll latency p99"],
    memory: ["peak RSS during the chain", "RSS after"],
    analysis: ["analysis as the page runs it, two workers, 2M"],
    heavy: ["poll latency p99, five 5M tasks", "poll latency p99 while a task finishes"],
  };
  for (const name of args.only) {
    const t = performance.now();
    try {
      const out = await parts[name]();
      rows.push(...out.rows);
      notes.push(...(out.notes ?? []));
    } catch (e) {
      log(`  (${name} failed: ${e.message.split("\n")[0]})`);
      notes.push(`${name}: could not complete: ${e.message.split("\n").slice(0, 3).join(" / ")}`);
      const label = `${PARTS.indexOf(name) + 1} ${name}`;
      const done = new Set(rows.filter((r) => r.part === label).map((r) => r.name));
      for (const f of fallback[name])
        if (!done.has(f))
          rows.push({ part: label, name: f, value: "—", goal: "", verdict: "MISS", note: `part failed: ${e.message.split("\n")[0]}` });
    }
    log(`  (${name}: ${fmt((performance.now() - t) / 1000, 0)} s)`);
  }
  await browser?.close().catch(() => {});

  log("\n=== bench:studio report ===");
  log(
    table([
      ["part", "figure", "value", "goal", "verdict", "detail"],
      ...rows.map((r) => [r.part, r.name, r.value, r.goal, r.verdict, r.note]),
    ]),
  );
  if (notes.length) log(`\nnotes:\n${notes.map((n) => `- ${n}`).join("\n")}`);
  const judged = rows.filter((r) => r.verdict === "PASS" || r.verdict === "MISS");
  const missed = judged.filter((r) => r.verdict === "MISS");
  log(
    `\nsummary: ${judged.length - missed.length} of ${judged.length} goals met` +
      (missed.length ? `; missed: ${missed.map((r) => `${r.name} ${r.value}`).join(", ")}` : "") +
      `. Took ${fmt((performance.now() - started) / 1000, 0)} s; load average now ${load()} (other work on the machine shows here).`,
  );
}

await main();
cleanupNow();
// Nothing of ours is left; do not wait on stray timers (e.g. a fetch's keep-alive).
process.exit(process.exitCode ?? 0);
