import pg from "pg";
import { z } from "zod";
import { log } from "@/lib/log";
import { TASK_EVENT_STATES, type TaskChange } from "./bus";

/** The PostgreSQL channel every server of one database announces its task changes on. */
export const TASK_CHANGE_CHANNEL = "x3d_task_changes";

// Ids and states only: a notification is visible to every session of the database.
const PayloadSchema = z.object({
  origin: z.string(),
  userId: z.string(),
  taskId: z.string(),
  state: z.enum(TASK_EVENT_STATES),
  settled: z.boolean(),
});

export interface PgRelayOptions {
  connectionString: string;
  /** This process's id: its own notifications come back to it and are skipped (it delivered them already). */
  origin: string;
  /** Sends `payload` on `channel` (`select pg_notify(…)`; the app's pool in production). */
  notify: (channel: string, payload: string) => Promise<void>;
  /** Waits between reconnections: the first, doubled up to the last. */
  retryMs?: { first: number; max: number };
}

/**
 * Carries task changes between servers sharing one PostgreSQL: each change is sent with
 * NOTIFY, and one dedicated connection per process LISTENs for the others' (a pooled
 * connection cannot: LISTEN belongs to a session). A dropped connection is made again after
 * a growing wait; changes sent meanwhile are not replayed (the task page's poll catches up).
 */
export class PgRelay {
  private client: pg.Client | null = null;
  private onRemote: ((change: TaskChange) => void) | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private delay: number;
  private stopped = false;
  private waiters: Array<() => void> = [];
  /** LISTEN is in place on a live connection. */
  listening = false;

  constructor(private readonly options: PgRelayOptions) {
    this.delay = options.retryMs?.first ?? 500;
  }

  /** Starts listening (once; later calls do nothing): `onRemote` gets every other process's change. */
  listen(onRemote: (change: TaskChange) => void): void {
    if (this.onRemote || this.stopped) return;
    this.onRemote = onRemote;
    void this.connect();
  }

  /** Announces a change of this process to the others. */
  async publish(change: TaskChange): Promise<void> {
    const payload = { origin: this.options.origin, ...change } satisfies z.infer<typeof PayloadSchema>;
    await this.options.notify(TASK_CHANGE_CHANNEL, JSON.stringify(payload));
  }

  /** Resolves once LISTEN is in place (now, or after the next (re)connection). */
  whenListening(): Promise<void> {
    if (this.listening) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The listening session's name in pg_stat_activity (for operators, and tests that cut it). */
  get applicationName(): string {
    return `x3d-task-changes-${this.options.origin}`.slice(0, 63);
  }

  /** Closes the listening connection for good. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    this.listening = false;
    if (client) await client.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      application_name: this.applicationName,
    });
    this.client = client;
    const lost = (why: unknown) => this.lost(client, why);
    client.on("error", lost);
    client.on("end", () => lost(new Error("the connection ended")));
    client.on("notification", (message) => {
      if (message.channel === TASK_CHANGE_CHANNEL) this.receive(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${TASK_CHANGE_CHANNEL}`);
    } catch (error) {
      lost(error);
      return;
    }
    if (this.client !== client) return;
    this.listening = true;
    this.delay = this.options.retryMs?.first ?? 500;
    for (const wake of this.waiters.splice(0)) wake();
  }

  private lost(client: pg.Client, why: unknown): void {
    if (this.client !== client) return; // already handled, or stopped
    this.client = null;
    this.listening = false;
    client.removeAllListeners();
    client.on("error", () => undefined);
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    log.warn({ err: why }, `[studio] task change listener lost its connection; trying again in ${this.delay} ms`);
    this.retryTimer = setTimeout(() => void this.connect(), this.delay);
    this.retryTimer.unref();
    this.delay = Math.min(this.delay * 2, this.options.retryMs?.max ?? 30_000);
  }

  private receive(payload: string | undefined): void {
    let parsed: z.infer<typeof PayloadSchema>;
    try {
      parsed = PayloadSchema.parse(JSON.parse(payload ?? ""));
    } catch (error) {
      log.warn({ err: error }, "[studio] ignored a task change notification that is not ours");
      return;
    }
    const { origin, ...change } = parsed;
    if (origin === this.options.origin) return; // ours: delivered in this process when it was published
    this.onRemote?.(change);
  }
}
