import "server-only";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { serverEnv } from "@/lib/env";
import { createPgliteDir } from "./pglite-init";
import { lockDataDir } from "./data-dir-lock.mjs";
import { migratePostgres } from "./migrate-postgres";
import { globalSingleton, startedSingleton } from "@/lib/global-singleton";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

interface DbHandle {
  db: Db;
  kind: "pglite" | "postgres";
  close: () => Promise<void>;
}

const KEY = "x3d.db";
const MIGRATIONS = path.join(process.cwd(), "lib/db/migrations");

/**
 * The app's one database: PGlite files under DATA_DIR by default, PostgreSQL when
 * DATABASE_URL is set. Migrations run once per process before the first use.
 */
export function database(): Promise<DbHandle> {
  return globalSingleton(KEY, open);
}

export async function db(): Promise<Db> {
  return (await database()).db;
}

/** Closes the database if this process opened it; never opens it to close it. */
export async function closeDatabase(): Promise<void> {
  const handle = startedSingleton<DbHandle>(KEY);
  if (handle) await (await handle).close();
}

async function open(): Promise<DbHandle> {
  const env = serverEnv();
  if (env.DATABASE_URL) {
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pg = await import("pg");
    const pool = new pg.default.Pool({ connectionString: env.DATABASE_URL, max: 10 });
    const instance = drizzle(pool, { schema });
    // Servers sharing the database boot together: migrations take a lock (migrate-postgres.ts).
    await migratePostgres(pool, MIGRATIONS);
    return { db: instance as unknown as Db, kind: "postgres", close: () => pool.end() };
  }
  const { PgliteRemote } = await import("./pglite-remote");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dir = path.join(env.DATA_DIR, "pglite");
  // One process at a time: a second server on the same DATA_DIR is refused, naming the first.
  const unlock = lockDataDir(env.DATA_DIR, "server");
  try {
    await createPgliteDir(dir, env.X3D_PGLITE_TEMPLATE);
    // PGlite runs in its own thread; drizzle's PGlite driver talks to it as to PGlite itself.
    const client = await PgliteRemote.open(dir);
    const instance = drizzle(client as unknown as PGlite, { schema });
    await migrate(instance, { migrationsFolder: MIGRATIONS });
    const close = async () => {
      await client.close();
      unlock();
    };
    return { db: instance as unknown as Db, kind: "pglite", close };
  } catch (error) {
    unlock();
    throw error;
  }
}
