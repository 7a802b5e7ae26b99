// The database side of `npm run restore`: this release's migrations (lib/db/migrations, as
// drizzle's migrator reads them), the order tables load in, and the statements that load them.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The migrations of `folder` as drizzle's migrator reads them (drizzle-orm/migrator.js): per
 * journal entry, its statements (split at the breakpoints), its time (the journal's `when`, which
 * drizzle records as created_at) and the sha256 of its file, oldest first.
 */
export function readMigrations(folder) {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta/_journal.json"), "utf8"));
  return journal.entries.map((entry) => {
    const text = fs.readFileSync(path.join(folder, `${entry.tag}.sql`), "utf8");
    return {
      tag: entry.tag,
      when: entry.when,
      hash: crypto.createHash("sha256").update(text).digest("hex"),
      statements: text.split("--> statement-breakpoint").filter((s) => s.trim() !== ""),
    };
  });
}

/**
 * The tables in an order that loads every referenced row before the rows referring to it:
 * `references` is [{table, references}] (foreign keys, from pg_constraint). A table referring to
 * itself is left to the loader (restore.mjs loads it in one statement, whose own references are
 * checked at its end); a loop between tables is refused.
 */
export function loadOrder(tables, references) {
  const needs = new Map(tables.map((t) => [t, new Set()]));
  for (const { table, references: target } of references) {
    if (table !== target && needs.has(table) && needs.has(target)) needs.get(table).add(target);
  }
  const order = [];
  const state = new Map();
  const visit = (table, trail) => {
    if (state.get(table) === "done") return;
    if (state.get(table) === "visiting")
      throw new Error(`the tables refer to each other in a loop (${[...trail, table].join(" → ")}): no load order`);
    state.set(table, "visiting");
    for (const target of [...needs.get(table)].sort()) visit(target, [...trail, table]);
    state.set(table, "done");
    order.push(table);
  };
  for (const table of [...tables].sort()) visit(table, []);
  return order;
}

/** A table's name as an SQL identifier (names were checked as plain lower-case identifiers when read). */
export const ident = (name) => `"${name.replaceAll('"', '""')}"`;

/** The statement that inserts a batch of a table's rows, given as a JSON array in $1. */
export const insertRows = (table) => `insert into ${ident(table)} select * from json_populate_recordset(null::${ident(table)}, $1::json)`;

/** The tables that refer to themselves (their rows must load in one statement). */
export const selfReferring = (references) => new Set(references.filter((r) => r.table === r.references).map((r) => r.table));
