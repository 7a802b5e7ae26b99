/**
 * A user's tasks are read through one condition: lib/tasks/read/queries.ts's `ownedBy`. A query
 * written with its own `eq(studioTasks.userId, …)` elsewhere could drift from it (a share link's
 * or an admin's view reading what the owner's does not), so no other production module writes it.
 * The import rules live in .dependency-cruiser.cjs (test/dependency-rules.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const OWNED_BY = "lib/tasks/read/queries.ts";
const WRITTEN = /eq\(\s*studioTasks\.userId\s*,/;

function* productionFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* productionFiles(file);
    else if (/\.tsx?$/.test(entry.name) && !/\.(test|spec|test-helpers)\.tsx?$/.test(entry.name)) yield file;
  }
}

describe("the owner-scoped task condition", () => {
  it("is written once, in lib/tasks/read/queries.ts (ownedBy)", () => {
    const files = ["app", "components", "lib"].flatMap((dir) => [...productionFiles(dir)]);
    expect(files).toContain(OWNED_BY);
    expect(WRITTEN.test(fs.readFileSync(path.join(ROOT, OWNED_BY), "utf8"))).toBe(true);
    const elsewhere = files.filter((file) => file !== OWNED_BY && WRITTEN.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(elsewhere).toEqual([]);
  });

  it("would find the condition written in a query", () => {
    expect(WRITTEN.test("db.select().from(studioTasks).where(eq( studioTasks.userId , user.id))")).toBe(true);
    expect(WRITTEN.test("db.select().from(studioTasks).where(ownedBy(user.id))")).toBe(false);
  });
});
