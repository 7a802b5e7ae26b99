import "server-only";
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";

// CommonJS for an eval'd worker: `import()` and `require` resolve from the working directory (the app's root).
const CREATE = `
const { workerData, parentPort } = require("node:worker_threads");
import("@electric-sql/pglite").then(async ({ PGlite }) => {
  const db = await PGlite.create(workerData.dir);
  await db.close();
  parentPort.postMessage("created");
});
`;

/**
 * Creates the PGlite data directory `dir` when it holds no database yet, in a worker thread
 * that then exits. Creating a cluster (initdb) grows PGlite's WebAssembly memory to about
 * 630 MB, and a WebAssembly memory never shrinks: created in the server's own thread, that
 * stays the server's idle footprint for its whole life (770 MB instead of 300 MB).
 */
export async function createPgliteDir(dir: string): Promise<void> {
  if (fs.existsSync(path.join(dir, "PG_VERSION"))) return;
  fs.mkdirSync(dir, { recursive: true });
  await new Promise<void>((resolve, reject) => {
    const worker = new Worker(CREATE, { eval: true, workerData: { dir } });
    let created = false;
    worker.once("message", () => (created = true));
    worker.once("error", reject);
    worker.once("exit", (code) =>
      created ? resolve() : reject(new Error(`creating the PGlite database in ${dir} failed (worker exit code ${code})`)),
    );
  });
}
