// A test file's own folder under the temporary directory, removed when the tests around the call
// are done (afterAll: the whole file at its top level, or the enclosing describe). Vitest runs
// "after" hooks in reverse order, so a file's own afterAll (closing its database) runs first.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

export function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `x3d-${label}-`));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A tempDir that is the process's DATA_DIR: the database and storage of the lib/ modules under
 * test, which read it on first use. Call it before anything opens "@/lib/db".
 */
export function tempDataDir(label: string): string {
  const dir = tempDir(label);
  process.env.DATA_DIR = dir;
  return dir;
}
