// The database for tests of lib/ modules that read and write tables: a fresh PostgreSQL database
// when X3D_TEST_DATABASE_URL is set (npm test's PostgreSQL run), else PGlite files in a
// temporary DATA_DIR. Call before the first import of "@/lib/db" (its settings are read once).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDatabase } from "@/test/harness/server";

export async function openTestDatabase(label: string): Promise<{ kind: "postgres" | "pglite"; dispose: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `x3d-${label}-`));
  process.env.DATA_DIR = dataDir;
  let drop = async () => {};
  if (process.env.X3D_TEST_DATABASE_URL) {
    const created = await createDatabase();
    process.env.DATABASE_URL = created.url;
    drop = created.drop;
  } else {
    delete process.env.DATABASE_URL;
  }
  return {
    kind: process.env.DATABASE_URL ? "postgres" : "pglite",
    dispose: async () => {
      const { closeDatabase } = await import("@/lib/db");
      await closeDatabase();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
