// Direct access to a test server's database, for planting rows a client cannot make (a
// crash's leftovers) and reading what the server recorded (how many times a task ran,
// whether it was refunded).
import path from "node:path";
import pg from "pg";
import type { TestServer } from "./server";

export type Query = <R extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<R[]>;

/**
 * Runs `work` with a query function on the server's database: its PostgreSQL database, or its
 * PGlite files, which only one process may open, so the server must be stopped then.
 */
export async function withDatabase<T>(server: TestServer, work: (query: Query) => Promise<T>): Promise<T> {
  if (server.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: server.env.DATABASE_URL });
    await client.connect();
    try {
      return await work(async <R>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as R[]);
    } finally {
      await client.end();
    }
  }
  if (server.running()) throw new Error("stop the server first: PGlite files are opened by one process at a time");
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(path.join(server.dataDir, "pglite"));
  try {
    return await work(async <R>(sql: string, params?: unknown[]) => (await db.query<R>(sql, params)).rows);
  } finally {
    await db.close();
  }
}

/**
 * Runs one query against the server's database. PostgreSQL is read while the server runs;
 * the embedded PGlite only when no server has it open (stop it first).
 */
export async function queryDb<T extends object>(server: TestServer, text: string, params: unknown[] = []): Promise<T[]> {
  return withDatabase(server, async (query) => (await query(text, params)) as unknown as T[]);
}
