// Vitest's global setup (vitest.config.ts): one PGlite cluster made once per machine, which
// every fresh DATA_DIR in the run copies instead of running initdb again (X3D_PGLITE_TEMPLATE,
// lib/db/pglite-init.ts). About 20 test files and every test server open a new database; a
// copy takes a tenth of a second where initdb takes 3–5 s. The cluster is made by the same
// function that makes the app's and is kept by PGlite version; migrations still run on each copy.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPgliteDir } from "@/lib/db/pglite-init";

export default async function setup(): Promise<void> {
  if (process.env.X3D_PGLITE_TEMPLATE) return;
  const pkg = path.join(process.cwd(), "node_modules/@electric-sql/pglite/package.json");
  const { version } = JSON.parse(fs.readFileSync(pkg, "utf8")) as { version: string };
  const template = path.join(os.tmpdir(), `x3d-pglite-template-${version}`);
  // Made under a name of its own and renamed: a run cut short never leaves half a cluster.
  if (!fs.existsSync(path.join(template, "PG_VERSION"))) {
    const partial = `${template}.${process.pid}`;
    fs.rmSync(partial, { recursive: true, force: true });
    await createPgliteDir(partial);
    try {
      fs.renameSync(partial, template);
    } catch {
      fs.rmSync(partial, { recursive: true, force: true });
    }
  }
  // Test files run in processes forked after this: they inherit it.
  process.env.X3D_PGLITE_TEMPLATE = template;
}
