import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { createPgliteDir } from "./pglite-init";
import { tempDir } from "@/test/harness/temp-dir";

const root = tempDir("pglite-init");

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

  it("copies a template instead of running initdb, and the copy is a database of its own", async () => {
    const template = path.join(root, "template");
    await createPgliteDir(template);
    const dir = path.join(root, "from-template", "pglite");
    await createPgliteDir(dir, template);
    const db = await PGlite.create(dir);
    try {
      await db.exec("create table own (v int); insert into own values (3)");
      expect((await db.query<{ v: number }>("select v from own")).rows).toEqual([{ v: 3 }]);
    } finally {
      await db.close();
    }
    // The template is left as it was, and no partial copy stays beside the new folder.
    const again = await PGlite.create(template);
    try {
      expect((await again.query("select 1 from pg_tables where tablename = 'own'")).rows).toEqual([]);
    } finally {
      await again.close();
    }
    expect(fs.readdirSync(path.dirname(dir))).toEqual(["pglite"]);
  }, 120_000);

  it("refuses a template that holds no database, naming the setting", async () => {
    const empty = path.join(root, "not-a-cluster");
    fs.mkdirSync(empty);
    await expect(createPgliteDir(path.join(root, "never"), empty)).rejects.toThrow(/X3D_PGLITE_TEMPLATE .*holds no PGlite database/);
    expect(fs.existsSync(path.join(root, "never"))).toBe(false);
  });

  it("keeps a database that is already there over the template", async () => {
    const template = path.join(root, "template");
    const dir = path.join(root, "existing");
    await createPgliteDir(dir, template);
    const db = await PGlite.create(dir);
    try {
      expect((await db.query<{ v: number }>("select v from kept")).rows).toEqual([{ v: 7 }]);
    } finally {
      await db.close();
    }
  }, 120_000);
});
