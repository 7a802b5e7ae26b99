// Direct reads of a test server's database, for what the Open API does not show (how many
// times a task ran, whether it was refunded).
import path from "node:path";
import pg from "pg";
import type { TestServer } from "./server";

/**
 * Runs one query against the server's database. PostgreSQL is read while the server runs;
 * the embedded PGlite only when no server has it open (stop it first).
 */
export async function queryDb<T extends object>(server: TestServer, text: string, params: unknown[] = []): Promise<T[]> {
  const url = server.env.DATABASE_URL;
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(text, params)).rows;
    } finally {
      await client.end();
    }
  }
  if (server.pid() !== undefined) throw new Error("the embedded database is read with its server stopped");
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(path.join(server.dataDir, "pglite"));
  try {
    return (await db.query<T>(text, params)).rows;
  } finally {
    await db.close();
  }
}
