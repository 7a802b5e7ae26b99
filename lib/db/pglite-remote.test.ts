import type { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgliteDir } from "./pglite-init";
import { PgliteRemote } from "./pglite-remote";
import { tempDir } from "@/test/harness/temp-dir";

const items = pgTable("items", {
  id: text("id").primaryKey(),
  n: integer("n").notNull(),
  meta: jsonb("meta"),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
});

const root = tempDir("pglite-remote");
let client: PgliteRemote;
let db: ReturnType<typeof drizzle>;

beforeAll(async () => {
  await createPgliteDir(root);
  client = await PgliteRemote.open(root);
  db = drizzle(client as unknown as PGlite);
  await db.execute(sql`create table items (id text primary key, n integer not null, meta jsonb, at timestamptz not null default now())`);
});

afterAll(async () => {
  await client.close();
});

describe("PGlite in its own thread", () => {
  it("answers drizzle's queries with the types drizzle maps (jsonb, timestamptz as Date)", async () => {
    await db.insert(items).values({ id: "a", n: 1, meta: { views: ["front"], ok: true } });
    const [row] = await db.select().from(items).where(eq(items.id, "a"));
    if (!row) throw new Error("the row was not stored");
    expect(row.meta).toEqual({ views: ["front"], ok: true });
    expect(row.at).toBeInstanceOf(Date);
    expect(Math.abs(row.at.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("commits a transaction, and rolls back one that throws", async () => {
    await db.transaction(async (tx) => {
      await tx.insert(items).values({ id: "committed", n: 2 });
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(items).values({ id: "rolled-back", n: 3 });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const ids = (await db.select({ id: items.id }).from(items)).map((r) => r.id);
    expect(ids).toContain("committed");
    expect(ids).not.toContain("rolled-back");
  });

  it("keeps a statement from outside out of an open transaction", async () => {
    let outside: Promise<number> | undefined;
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(items).values({ id: "uncommitted", n: 4 });
        // Sent while the transaction is open: on one connection it would see the row.
        outside = db.$count(items, eq(items.id, "uncommitted"));
        await new Promise((r) => setTimeout(r, 50));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await outside).toBe(0);
  });

  it("passes PostgreSQL's error fields through (a unique violation is 23505)", async () => {
    const error = await db
      .insert(items)
      .values({ id: "a", n: 9 })
      .then(
        () => undefined,
        (e: unknown) => e as Error & { cause?: { code?: string; constraint?: string } },
      );
    expect(error?.cause?.code).toBe("23505");
    expect(error?.cause?.constraint).toBe("items_pkey");
  });

  it("supports savepoints in nested transactions", async () => {
    await db.transaction(async (tx) => {
      await tx.insert(items).values({ id: "outer", n: 5 });
      await tx
        .transaction(async (inner) => {
          await inner.insert(items).values({ id: "inner", n: 6 });
          throw new Error("inner only");
        })
        .catch(() => undefined);
    });
    const ids = (await db.select({ id: items.id }).from(items)).map((r) => r.id);
    expect(ids).toContain("outer");
    expect(ids).not.toContain("inner");
  });

  it("leaves the calling thread free while a long statement runs", async () => {
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    await db.execute(sql`select count(*) from generate_series(1, 3000000) g, lateral (select md5(g::text)) h`);
    const took = performance.now() - started;
    clearInterval(ticker);
    // In this thread the statement would hold the loop for all of `took`.
    expect(took).toBeGreaterThan(300);
    expect(longestGap).toBeLessThan(took / 3);
  });
});
