import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";

/** What drizzle's PGlite driver calls on its client: queries, and transactions of queries. */
export interface PgliteLike {
  query<T>(sql: string, params?: unknown[], options?: { rowMode?: "array" | "object" }): Promise<Results<T>>;
  transaction<T>(fn: (tx: Pick<PgliteLike, "query">) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface Results<T> {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

type Request =
  | { op: "query"; sql: string; params: unknown[]; rowMode: "array" | "object"; tx?: number }
  | { op: "begin" | "end"; tx: number; commit?: boolean }
  | { op: "close" };
type Answer = { id: number; result?: unknown; error?: Record<string, string | number> & { message: string } };

// A plain ES module read at run time, like the migrations beside it: the server bundle never holds PGlite's thread.
const HOST = path.join(process.cwd(), "lib/db/pglite-host.mjs");

/**
 * PGlite in its own worker thread, answering drizzle's driver through messages. The
 * server thread then never runs a statement or a synchronous file write itself: a poll
 * is not held up by another request's commit. Statements run one at a time, as in
 * PGlite itself; a statement outside a transaction waits while one is open.
 */
export class PgliteRemote implements PgliteLike {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private nextTx = 1;
  private failure?: Error;

  private constructor(worker: Worker) {
    this.worker = worker;
    worker.on("message", (answer: Answer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (answer.error) waiting.reject(Object.assign(new Error(answer.error.message), answer.error));
      else waiting.resolve(answer.result);
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the database thread stopped (exit code ${code})`)));
  }

  /** Opens the database in `dir` (which must already hold one: see createPgliteDir). */
  static async open(dir: string): Promise<PgliteRemote> {
    const worker = new Worker(HOST, { workerData: { dir } });
    await new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      const exited = (code: number) => reject(new Error(`opening the database in ${dir} failed (exit code ${code})`));
      worker.once("error", failed).once("exit", exited);
      worker.once("message", () => {
        worker.off("error", failed).off("exit", exited);
        resolve();
      });
    });
    return new PgliteRemote(worker);
  }

  private call<T>(request: Request): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, ...request });
    });
  }

  query<T>(sql: string, params: unknown[] = [], options?: { rowMode?: "array" | "object" }, tx?: number): Promise<Results<T>> {
    return this.call({ op: "query", sql, params, rowMode: options?.rowMode ?? "object", tx });
  }

  async transaction<T>(fn: (tx: Pick<PgliteLike, "query">) => Promise<T>): Promise<T> {
    const tx = this.nextTx++;
    await this.call({ op: "begin", tx });
    let result: T;
    try {
      result = await fn({ query: (sql, params, options) => this.query(sql, params, options, tx) });
    } catch (error) {
      await this.call({ op: "end", tx, commit: false });
      throw error;
    }
    await this.call({ op: "end", tx, commit: true });
    return result;
  }

  async close(): Promise<void> {
    if (this.failure) return;
    const exited = new Promise((resolve) => this.worker.once("exit", resolve));
    await this.call({ op: "close" });
    await exited;
  }
}
