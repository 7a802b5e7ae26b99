// `npm start`: builds when the build is missing or older than the sources, then serves.
import { execSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const stamp = path.join(root, ".next/BUILD_ID");
const workers = [".build/engine-worker.mjs", ".build/display-worker.mjs"].map((w) => path.join(root, w));

function newest(dir) {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return t;
}

const sources = ["app", "components", "lib", "public", "instrumentation.ts", "next.config.js", "package.json"]
  .map((p) => path.join(root, p))
  .filter((p) => fs.existsSync(p))
  .map((p) => (fs.statSync(p).isDirectory() ? newest(p) : fs.statSync(p).mtimeMs));
const outputs = [stamp, ...workers];
const built = outputs.every((f) => fs.existsSync(f)) ? Math.min(...outputs.map((f) => fs.statSync(f).mtimeMs)) : 0;

if (built < Math.max(...sources)) {
  console.log("Building x3d studio (first start, or the sources changed)...");
  execSync("npm run build", { cwd: root, stdio: "inherit" });
}

const port = process.env.PORT ?? "3000";
const next = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", port], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PORT: port },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => next.kill(signal));
next.on("exit", (code) => process.exit(code ?? 0));
