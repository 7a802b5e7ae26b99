// Several app servers on one PostgreSQL boot together (issue 10): each migrates at boot.
import crypto from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres } from "./migrate-postgres";
import { adminQuery } from "@/test/harness/server";

const admin = process.env.X3D_TEST_DATABASE_URL;
const name = `x3d_migrate_${crypto.randomBytes(6).toString("hex")}`;
let url = "";

beforeAll(async () => {
  if (!admin) return;
  await adminQuery(`create database ${name}`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  url = u.toString();
});
afterAll(async () => {
  if (admin) await adminQuery(`drop database if exists ${name} with (force)`);
});

describe.skipIf(!admin)("migratePostgres (needs X3D_TEST_DATABASE_URL)", () => {
  it("four servers migrating one fresh database at once: all succeed, each migration applied once", async () => {
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 2 }));
    try {
      const outcomes = await Promise.allSettled(pools.map((p) => migratePostgres(p, path.resolve(import.meta.dirname, "migrations"))));
      expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : "ok"))).toEqual(["ok", "ok", "ok", "ok"]);
      const journal = (await import("./migrations/meta/_journal.json")).entries;
      const applied = await pools[0]!.query<{ n: string }>("select count(*) as n from drizzle.__drizzle_migrations");
      expect(Number(applied.rows[0]!.n)).toBe(journal.length);
      // And a later boot (nothing left to apply) still passes.
      await migratePostgres(pools[1]!, path.resolve(import.meta.dirname, "migrations"));
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });
});
