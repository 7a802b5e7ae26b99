/** Tables of the embedded x3d service (lib/engine). The studio's tables live beside them. */
import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const engineClients = pgTable(
  "engine_clients",
  {
    id: text("id").primaryKey(),
    /** sha256 of the client secret, hex. Secrets are high-entropy, so a plain hash suffices. */
    secretHash: text("secret_hash").notNull(),
    /** Credits; never negative (checked on every charge, and by a constraint). */
    balance: bigint("balance", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * False for a pair the server is no longer configured with (X3D_CLIENT_ID changed): its
     * secret and tokens are refused, its tasks, balance and history are kept.
     */
    active: boolean("active").notNull().default(true),
  },
  (t) => [check("engine_clients_balance_nonnegative", sql`${t.balance} >= 0`)],
);

export const engineSettings = pgTable("engine_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const engineTasks = pgTable(
  "engine_tasks",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => engineClients.id),
    kind: text("kind").$type<"image-to-3d" | "split" | "depth" | "segmentation">().notNull(),
    state: text("state").$type<"created" | "queueing" | "processing" | "success" | "failed">().notNull(),
    /** The validated options the worker gets (a lib/engine/generate/job.ts Job without paths). */
    options: jsonb("options").notNull(),
    /** Where the inputs are: stored files under the task folder, or URLs still to fetch. */
    inputs: jsonb("inputs").notNull(),
    cost: integer("cost").notNull(),
    refunded: boolean("refunded").notNull().default(false),
    resultFile: text("result_file"),
    coverFile: text("cover_file"),
    /** Why it failed, for operators (never sent to clients, whose answer is a code). */
    failure: text("failure"),
    callbackUrl: text("callback_url"),
    /** none | pending | delivered | gave_up */
    callbackStatus: text("callback_status").notNull().default("none"),
    callbackAttempts: integer("callback_attempts").notNull().default(0),
    callbackNextAt: timestamp("callback_next_at", { withTimezone: true }),
    /** How many times processing started (restarts resume a task). */
    runs: integer("runs").notNull().default(0),
    owner: text("owner"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /**
     * When housekeeping removed the task's files (X3D_ENGINE_RETENTION_HOURS after it
     * finished): the row stays, its links answer 410 Gone.
     */
    filesExpiredAt: timestamp("files_expired_at", { withTimezone: true }),
  },
  (t) => [
    index("engine_tasks_state_idx").on(t.state, t.createdAt),
    index("engine_tasks_client_state_idx").on(t.clientId, t.state),
    index("engine_tasks_callback_idx").on(t.callbackStatus, t.callbackNextAt),
    // Housekeeping's look-up of finished tasks whose files are still kept.
    index("engine_tasks_files_kept_idx")
      .on(t.finishedAt)
      .where(sql`${t.filesExpiredAt} is null`),
  ],
);

export type EngineTask = typeof engineTasks.$inferSelect;
