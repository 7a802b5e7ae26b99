// `npm run bench:analysis-ab -- <commit> [--size=2000000] [--runs=8]`: the viewer's analysis as
// the page runs it (analyseInWorker, two workers, worker_threads playing the web workers) of
// another commit and of this checkout, taking turns in one process on the same model, with each
// pair's ratio. On a shared machine a median moves by a tenth from one hour to the next; the
// ratio of two runs made one after the other moves far less, so a change is judged by the median
// of its pairs' ratios. The other commit is checked out in a temporary git worktree and bundled
// with this checkout's node_modules.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchModel, threadWorkers } from "./bench-studio/analysis.mjs";
import { ROOT, fmt, log, median } from "./bench-studio/common.mjs";

const USAGE = "usage: npm run bench:analysis-ab -- <commit> [--size=2000000] [--runs=8]";
const args = process.argv.slice(2);
const option = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const commit = args.find((a) => !a.startsWith("--"));
if (!commit) {
  console.error(USAGE);
  process.exit(2);
}
const size = option("size", 2_000_000);
const runs = option("runs", 8);

const ENTRY = `
export { analyseInWorker } from "./lib/viewer/analyse-in-worker.ts";
export { analysisSteps } from "./lib/viewer/analysis-steps.ts";
`;

/** Bundles `root`'s analysis; returns its code and a Worker class running its steps. */
async function side(name, root, dir) {
  const esbuild = await import("esbuild");
  const bundle = path.join(dir, `${name}.mjs`);
  await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: root, loader: "ts" },
    nodePaths: [path.join(ROOT, "node_modules")],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile: bundle,
    logLevel: "error",
  });
  return { name, code: await import(bundle), Worker: threadWorkers(bundle, path.join(dir, `${name}-worker.mjs`)) };
}

/** One analysis of a fresh copy of `model` by `s`'s code: wall ms and the faces under 0.8 units. */
function analyse(s, model) {
  globalThis.Worker = s.Worker;
  const input = { positions: model.positions.slice(), indices: model.indices.slice() };
  return new Promise((resolve, reject) => {
    const start = performance.now();
    s.code.analyseInWorker(
      input,
      new AbortController().signal,
      {
        onAnalysis() {},
        onThickness(thickness) {
          let thin = 0;
          for (const t of thickness) if (t < 0.8) thin++;
          resolve({ ms: performance.now() - start, thin });
        },
        onError: (message) => reject(new Error(message)),
      },
      true,
    );
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-analysis-ab-"));
const tree = path.join(dir, "base");
execFileSync("git", ["worktree", "add", "--detach", tree, commit], { cwd: ROOT, stdio: "ignore" });
try {
  const base = await side("base", tree, dir);
  const current = await side("current", ROOT, dir);
  const model = benchModel(size);
  log(`analysis as the page runs it, two workers, ${size} triangles: ${commit} (base) and this checkout, ${runs} turns each`);
  const pairs = [];
  for (let run = 0; run < runs; run++) {
    // Each pair's order alternates, so neither side always runs on the other's leftovers.
    const order = run % 2 ? [current, base] : [base, current];
    const got = {};
    for (const s of order) got[s.name] = await analyse(s, model);
    if (got.base.thin !== got.current.thin)
      throw new Error(`the walls differ: ${got.base.thin} against ${got.current.thin} faces under 0.8`);
    pairs.push({ base: got.base.ms, current: got.current.ms, ratio: got.current.ms / got.base.ms });
    log(
      `  turn ${run + 1}: base ${fmt(got.base.ms, 0)} ms, current ${fmt(got.current.ms, 0)} ms, ${fmt(got.current.ms / got.base.ms, 2)}×`,
    );
  }
  const ratios = pairs.map((p) => p.ratio);
  log(
    `current / base: median ${fmt(median(ratios), 2)}× (${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}); ` +
      `medians ${fmt(median(pairs.map((p) => p.current)), 0)} ms against ${fmt(median(pairs.map((p) => p.base)), 0)} ms; walls equal`,
  );
} finally {
  execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: ROOT, stdio: "ignore" });
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
