import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { createPgliteDir } from "./pglite-init";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "x3d-pglite-init-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("createPgliteDir", () => {
  it("creates the database in another thread: this thread's memory does not grow by initdb's ~600 MB", async () => {
    const dir = path.join(root, "fresh");
    const before = process.memoryUsage().external;
    await createPgliteDir(dir);
    const grown = process.memoryUsage().external - before;
    expect(fs.existsSync(path.join(dir, "PG_VERSION"))).toBe(true);
    expect(grown).toBeLessThan(64 * 1024 * 1024);
    // The created database opens and works.
    const db = await PGlite.create(dir);
    try {
      expect((await db.query<{ one: number }>("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  }, 120_000);

  it("leaves an existing database alone", async () => {
    const dir = path.join(root, "existing");
    await createPgliteDir(dir);
    const db = await PGlite.create(dir);
    await db.exec("create table kept (v int); insert into kept values (7)");
    await db.close();
    await createPgliteDir(dir);
    const again = await PGlite.create(dir);
    try {
      expect((await again.query<{ v: number }>("select v from kept")).rows).toEqual([{ v: 7 }]);
    } finally {
      await again.close();
    }
  }, 120_000);
});
