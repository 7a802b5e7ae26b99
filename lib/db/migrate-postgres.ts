import "server-only";
import type { Pool } from "pg";
import * as schema from "./schema";

/** Any fixed number: the lock every server takes before migrating. */
const MIGRATION_LOCK = 7302002;

/**
 * Applies the migrations to the PostgreSQL database behind `pool`. Servers sharing the
 * database boot together, and drizzle's migrator does not expect company: two of them on a
 * fresh database both run `create schema if not exists` (one fails on the catalog's unique
 * index) and both see no migration applied. So migrations run on one connection holding an
 * advisory lock; whoever waits finds them applied and applies nothing.
 */
export async function migratePostgres(pool: Pool, migrationsFolder: string): Promise<void> {
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    // A connection that failed may still hold the lock: closed rather than pooled, it lets go.
    client.release(broken);
  }
}
