// The database `npm run restore` fills: the embedded PGlite under DATA_DIR/pglite, or the
// PostgreSQL of DATABASE_URL, behind one small interface (query with parameters, exec of a
// script, a transaction), and the restore's steps on it.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { ident, insertRows, loadOrder, selfReferring } from "./schema.mjs";

/** Rows per insert (and at most this many bytes of JSON). */
const BATCH_ROWS = 1000;
const BATCH_BYTES = 4 * 1024 * 1024;

/** PGlite's files in `dir`: a copy of `template` when given (as lib/db/pglite-init.ts does for the tests), else a new cluster. */
async function createPglite(dir, template) {
  const { PGlite } = await import("@electric-sql/pglite");
  if (template) {
    if (!fs.existsSync(path.join(template, "PG_VERSION"))) throw new Error(`X3D_PGLITE_TEMPLATE (${template}) holds no PGlite database`);
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.cpSync(template, dir, { recursive: true });
  } else {
    fs.mkdirSync(dir, { recursive: true });
    await (await PGlite.create(dir)).close();
  }
  return PGlite.create(dir);
}

const pgliteRunner = (db) => ({
  query: async (sql, params) => (await db.query(sql, params)).rows,
  exec: async (sql) => void (await db.exec(sql)),
});

/**
 * Opens the database to restore into. `pgliteDir` is created (it must not exist); `created`
 * says so, for the caller to remove it when the restore fails.
 */
export async function openDatabase({ databaseUrl, pgliteDir, template }) {
  if (databaseUrl) {
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const runner = {
      query: async (sql, params) => (await client.query(sql, params)).rows,
      exec: async (sql) => void (await client.query(sql)),
    };
    return {
      kind: "postgres",
      ...runner,
      async transaction(work) {
        await client.query("begin");
        try {
          const result = await work(runner);
          await client.query("commit");
          return result;
        } catch (error) {
          await client.query("rollback").catch(() => {});
          throw error;
        }
      },
      close: () => client.end(),
    };
  }
  const db = await createPglite(pgliteDir, template);
  return {
    kind: "pglite",
    ...pgliteRunner(db),
    transaction: (work) => db.transaction((tx) => work(pgliteRunner(tx))),
    close: () => db.close(),
  };
}

/** What makes a database not empty for a restore: tables in `public`, or drizzle's record of migrations. */
export async function databaseContents(db) {
  const tables = (await db.query("select tablename from pg_catalog.pg_tables where schemaname = 'public' order by tablename")).map(
    (r) => r.tablename,
  );
  const [{ migrations }] = await db.query("select to_regclass('drizzle.__drizzle_migrations') is not null as migrations");
  return { tables, migrations };
}

/** Applies migrations as drizzle's migrator does (drizzle-orm/pg-core/dialect.js), recording each in drizzle.__drizzle_migrations. */
async function applyMigrations(tx, migrations) {
  await tx.exec(`create schema if not exists "drizzle";
    create table if not exists "drizzle"."__drizzle_migrations" (id serial primary key, hash text not null, created_at bigint)`);
  for (const migration of migrations) {
    for (const statement of migration.statements) await tx.exec(statement);
    await tx.query(`insert into "drizzle"."__drizzle_migrations" ("hash", "created_at") values ($1, $2)`, [migration.hash, migration.when]);
  }
}

/** Inserts a table's rows from its .jsonl file, in batches (one batch for a table referring to itself). */
async function loadTable(tx, table, file, oneBatch) {
  let batch = [];
  let bytes = 0;
  let rows = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.query(insertRows(table), [`[${batch.join(",")}]`]);
    rows += batch.length;
    batch = [];
    bytes = 0;
  };
  const lines = readline.createInterface({ input: fs.createReadStream(file, "utf8"), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === "") continue;
    batch.push(line);
    bytes += line.length;
    if (!oneBatch && (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES)) await flush();
  }
  await flush();
  return rows;
}

/** Sets every serial or identity column's sequence past the largest value restored. */
async function resetSequences(tx) {
  const columns = await tx.query(`
    select table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) as seq
    from information_schema.columns where table_schema = 'public'`);
  for (const { table_name: table, column_name: column, seq } of columns) {
    if (!seq) continue;
    await tx.query(`select setval($1, coalesce((select max(${ident(column)}) from ${ident(table)}), 0) + 1, false)`, [seq]);
  }
}

/**
 * The restore's database step, in one transaction: the schema the archive was taken on (its
 * first `count` migrations), every table's rows in foreign-key order, the sequences, then this
 * release's later migrations. Checks each table's row count against the manifest before it
 * commits; anything wrong rolls all of it back.
 */
export async function restoreDatabase(db, { migrations, count, tables, tableFile }) {
  return db.transaction(async (tx) => {
    await applyMigrations(tx, migrations.slice(0, count));
    const present = (await tx.query("select tablename from pg_catalog.pg_tables where schemaname = 'public'")).map((r) => r.tablename);
    for (const table of Object.keys(tables))
      if (!present.includes(table))
        throw new Error(`the archive holds rows of ${table}, a table the schema of its ${count} migrations does not have`);
    const references = (
      await tx.query(`
        select cl.relname as "table", rf.relname as "references"
        from pg_catalog.pg_constraint c
        join pg_catalog.pg_class cl on cl.oid = c.conrelid
        join pg_catalog.pg_class rf on rf.oid = c.confrelid
        join pg_catalog.pg_namespace n on n.oid = cl.relnamespace
        where c.contype = 'f' and n.nspname = 'public'`)
    ).map((r) => ({ table: r.table, references: r.references }));
    const self = selfReferring(references);
    const loaded = {};
    for (const table of loadOrder(Object.keys(tables), references)) {
      loaded[table] = await loadTable(tx, table, tableFile(table), self.has(table));
      if (loaded[table] !== tables[table]) throw new Error(`${table}: ${loaded[table]} rows loaded, the manifest says ${tables[table]}`);
    }
    await resetSequences(tx);
    await applyMigrations(tx, migrations.slice(count));
    return loaded;
  });
}
