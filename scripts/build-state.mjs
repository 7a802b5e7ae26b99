// Whether the production build (`npm run build`: .next, the bundled workers, .next/standalone) is there and
// newer than the sources. Used by `npm start` and the benchmarks.
import fs from "node:fs";
import path from "node:path";
import { ROOT, WORKERS } from "./worker-bundle.mjs";

const SOURCES = ["app", "components", "lib", "public", "instrumentation.ts", "next.config.js", "package.json"];

function newest(dir) {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return t;
}

/** "missing", "stale" (a source is newer than the oldest output) or "fresh". */
export function buildState() {
  // The standalone folder's worker bundles are the build's last writes (scripts/standalone.mjs).
  const outputs = [".next/BUILD_ID", ...WORKERS.flatMap(([, out]) => [out, `.next/standalone/${out}`])].map((p) => path.join(ROOT, p));
  if (!outputs.every((f) => fs.existsSync(f))) return "missing";
  const built = Math.min(...outputs.map((f) => fs.statSync(f).mtimeMs));
  const changed = SOURCES.map((p) => path.join(ROOT, p))
    .filter((p) => fs.existsSync(p))
    .map((p) => (fs.statSync(p).isDirectory() ? newest(p) : fs.statSync(p).mtimeMs));
  return built < Math.max(...changed) ? "stale" : "fresh";
}
