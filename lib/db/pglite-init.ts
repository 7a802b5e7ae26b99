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
 *
 * With `template` (a closed data directory this function created, X3D_PGLITE_TEMPLATE), the
 * new directory is a copy of it: initdb takes 3–5 s, a copy a tenth of a second, which is
 * what the test suites, opening a fresh database per file, save.
 */
export async function createPgliteDir(dir: string, template?: string): Promise<void> {
  if (isPgliteDir(dir)) return;
  if (template) {
    if (!isPgliteDir(template)) throw new Error(`X3D_PGLITE_TEMPLATE (${template}) holds no PGlite database`);
    // Into a sibling first, then renamed: a copy cut short is never taken for a database,
    // and of two processes copying at once the second's rename fails and its copy goes.
    const partial = `${dir}.copy-${process.pid}-${Date.now()}`;
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.cpSync(template, partial, { recursive: true });
    try {
      fs.renameSync(partial, dir);
    } catch (error) {
      fs.rmSync(partial, { recursive: true, force: true });
      if (!isPgliteDir(dir)) throw error;
    }
    return;
  }
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

function isPgliteDir(dir: string): boolean {
  return fs.existsSync(path.join(dir, "PG_VERSION"));
}
