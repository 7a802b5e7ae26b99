// The embedded database's own thread: PGlite runs here, and the server thread sends it
// queries as messages (lib/db/pglite-remote.ts). PGlite executes every statement
// synchronously in WebAssembly and writes its files with synchronous fs calls, so in the
// server's thread each query and each commit stalls every request in flight.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, types } from "@electric-sql/pglite";

// Dates and intervals stay text, as drizzle's PGlite driver asks (it maps them itself).
const asText = (value) => value;
const PARSERS = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((t) => [t, asText]),
);

const db = await PGlite.create(workerData.dir);
/** Open transactions by the server's id: their PGlite handle and how to end them. */
const open = new Map();
const ROLLBACK = Symbol("rollback");

function errorFields(error) {
  const fields = { message: error instanceof Error ? error.message : String(error), name: error?.name ?? "Error" };
  for (const [key, value] of Object.entries(error ?? {})) {
    if (typeof value === "string" || typeof value === "number") fields[key] = value;
  }
  return fields;
}

function reply(id, work) {
  work.then(
    (result) => parentPort.postMessage({ id, result }),
    (error) => parentPort.postMessage({ id, error: errorFields(error) }),
  );
}

function query(message) {
  const target = message.tx === undefined ? db : open.get(message.tx)?.tx;
  if (!target) return Promise.reject(new Error(`transaction ${message.tx} is not open`));
  return target
    .query(message.sql, message.params, { rowMode: message.rowMode, parsers: PARSERS })
    .then(({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows }));
}

/** Opens a transaction and answers once it is open; `end` answers once it committed or rolled back. */
function begin(message) {
  return new Promise((opened, failed) => {
    const entry = { tx: undefined, finish: undefined, done: undefined };
    const ended = new Promise((resolve) => (entry.finish = resolve));
    open.set(message.tx, entry);
    entry.done = db
      .transaction(async (tx) => {
        entry.tx = tx;
        opened(undefined);
        if ((await ended) === ROLLBACK) throw ROLLBACK;
      })
      .catch((error) => {
        if (error !== ROLLBACK) throw error;
      })
      .finally(() => open.delete(message.tx));
    // BEGIN refused: the callback never ran and `opened` never will.
    entry.done.catch(failed);
  });
}

function end(message) {
  const entry = open.get(message.tx);
  if (!entry) return Promise.reject(new Error(`transaction ${message.tx} is not open`));
  entry.finish(message.commit ? "commit" : ROLLBACK);
  return entry.done;
}

parentPort.on("message", (message) => {
  switch (message.op) {
    case "query":
      return reply(message.id, query(message));
    case "begin":
      return reply(message.id, begin(message));
    case "end":
      return reply(message.id, end(message));
    case "close":
      // Answered once the files are closed; the thread then ends.
      return void db.close().then(() => {
        parentPort.postMessage({ id: message.id });
        parentPort.close();
      });
  }
});
parentPort.postMessage({ ready: true });
