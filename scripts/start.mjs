// `npm start`: builds when the build is missing or older than the sources, then serves (`next start`).
// `npm run worker` (--worker): the same build, served as a worker (X3D_ROLE=worker, port 3001
// unless PORT is set): it generates, saves results, delivers callbacks and keeps house for the
// web servers sharing its DATABASE_URL, and answers only /api/health.
// `npm run start:standalone` (--standalone): the same, then serves the standalone folder's
// server.js (.next/standalone, scripts/standalone.mjs) as the container image's command does.
import { execSync, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildOnce } from "./build-once.mjs";
import { buildState } from "./build-state.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const standalone = process.argv.includes("--standalone");
const worker = process.argv.includes("--worker");

await buildOnce({
  lockDir: path.join(root, ".build", "start.lock"),
  state: buildState,
  build: () => {
    console.log("Building x3d studio (first start, or the sources changed)...");
    execSync("npm run build", { cwd: root, stdio: "inherit" });
  },
});

const port = process.env.PORT ?? (worker ? "3001" : "3000");
// glibc gives each thread that allocates (generation and display workers, libvips, PGlite's
// thread) an arena of its own, up to 8 per core, and keeps what they freed: the 198 MB texture
// chain peaked at a median 1.62 GB and stayed 357 MB over idle. With two arenas: 1.41 GB and
// +234 MB (bench:studio --only=memory, medians of 5 and 6 runs).
const MALLOC_ARENA_MAX = "2";
const env = {
  ...process.env,
  PORT: port,
  MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? MALLOC_ARENA_MAX,
  NEXT_TELEMETRY_DISABLED: "1",
  ...(worker ? { X3D_ROLE: "worker" } : {}),
};
/** A path setting as the app reads it from the checkout (server.js moves into its own folder). */
const fromRoot = (value) => path.resolve(root, value);
const next = standalone
  ? spawn(process.execPath, ["server.js"], {
      cwd: path.join(root, ".next/standalone"),
      stdio: "inherit",
      env: {
        ...env,
        // Every address, as in the image: a HOSTNAME the shell exports (the machine's name)
        // would bind one, and the studio calls its embedded service at 127.0.0.1.
        HOSTNAME: "0.0.0.0",
        // Relative, it would name a folder inside .next, which the next build removes.
        DATA_DIR: fromRoot(process.env.DATA_DIR || "data"),
        ...(process.env.X3D_PGLITE_TEMPLATE ? { X3D_PGLITE_TEMPLATE: fromRoot(process.env.X3D_PGLITE_TEMPLATE) } : {}),
      },
    })
  : spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", port], {
      cwd: root,
      stdio: "inherit",
      env,
    });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => next.kill(signal));
next.on("exit", (code) => process.exit(code ?? 0));
