/** Tables of the studio: accounts, staged uploads, tasks as the studio tracks them, share links. */
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Lower-cased. */
    email: text("email").notNull(),
    name: text("name"),
    /** scrypt: `scrypt$N$r$p$salt$hash` (base64url); null for GitHub-only accounts. */
    passwordHash: text("password_hash"),
    githubId: text("github_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set by an admin: the account cannot sign in and its sessions are revoked. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** When a request last came with one of its sessions (to the minute; lib/accounts/sessions.ts). */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("users_email_idx").on(t.email), uniqueIndex("users_github_idx").on(t.githubId)],
);

/**
 * A signed-in browser. The session cookie (a JWT) carries the id; a session is valid while its
 * row is here and not revoked, so signing out ends it at once, not when the cookie expires.
 */
export const sessions = pgTable(
  "sessions",
  {
    /** Random, 32 bytes, base64url. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set by signing out, "sign out everywhere" or a password change. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The browser's User-Agent at sign-in (at most 512 characters): the account page names the device from it. */
    userAgent: text("user_agent"),
    /** When a request last came with this session (to the minute; lib/accounts/sessions.ts). Null on rows from before it was kept. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * Throttled events per key (failed sign-ins per address, per address and e-mail; sign-ups per
 * address: lib/accounts/throttle.ts), to slow down guessing and bulk sign-ups.
 */
export const signInThrottle = pgTable("sign_in_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A file dropped in the studio, staged until a task uses it. */
export const uploads = pgTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** image | mesh */
    kind: text("kind").$type<"image" | "mesh">().notNull(),
    /** png | jpeg | webp | glb | stl | obj, from the bytes. */
    type: text("type").notNull(),
    filename: text("filename").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    /** Relative to the studio storage folder. */
    file: text("file").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("uploads_user_idx").on(t.userId, t.createdAt)],
);

export type StudioTaskKind = "image-to-3d" | "texture" | "split" | "depth" | "segmentation";
/**
 * "checking": the create request may have reached the service but its answer was lost (a
 * timeout, a dropped connection, a garbage answer): the task may exist there, charged. It
 * waits for the service's callback (the callback URL names this task) and settles as failed
 * after CHECKING_WINDOW_MS without one.
 */
export type TaskState = "checking" | "created" | "queueing" | "processing" | "success" | "failed";
export type DisplayState = "ready" | "failed" | "none";

export const studioTasks = pgTable(
  "studio_tasks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<StudioTaskKind>().notNull(),
    /** The service's task id (for segmentation look-ups, also tasks made elsewhere); null while "checking". */
    serviceTaskId: text("service_task_id"),
    /** The options as submitted (wire names), for display and "run again". */
    options: jsonb("options").$type<Record<string, unknown>>().notNull(),
    /** Upload ids and source task ids the task was made from. */
    inputs: jsonb("inputs").$type<Record<string, unknown>>().notNull(),
    state: text("state").$type<TaskState>().notNull(),
    cost: integer("cost").notNull().default(0),
    /** Service error code when it failed. */
    errorCode: integer("error_code"),
    /** Consecutive queries the service answered "task not found" (10030010); 3 settle the task as failed. */
    unknownAnswers: integer("unknown_answers").notNull().default(0),
    /** Files in studio storage, copied from the service once it succeeded. */
    resultFile: text("result_file"),
    coverFile: text("cover_file"),
    /**
     * The viewer's copies of a mesh result (meshopt GLB, WebP textures; a light preview for
     * large models). displayState: null until derived, then ready, failed (the viewer falls
     * back to the original) or none (results that are not meshes, e.g. depth images).
     */
    displayFile: text("display_file"),
    previewFile: text("preview_file"),
    displayState: text("display_state").$type<DisplayState>(),
    /** sha256 of the per-task callback secret. */
    callbackSecretHash: text("callback_secret_hash"),
    /** When each state was first seen: {created: iso, queueing: iso, ...}. */
    stateTimes: jsonb("state_times").$type<Partial<Record<TaskState, string>>>().notNull(),
    refreshedAt: timestamp("refreshed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("studio_tasks_user_idx").on(t.userId, t.createdAt),
    index("studio_tasks_service_idx").on(t.serviceTaskId),
    // The tasks not settled yet, which workers sweep every second (lib/tasks/lifecycle/save-sweeps): few of many.
    index("studio_tasks_unsettled_idx")
      .on(t.refreshedAt)
      .where(sql`${t.displayState} is null and ${t.state} <> 'failed'`),
  ],
);

export const shares = pgTable(
  "shares",
  {
    token: text("token").primaryKey(),
    taskId: text("task_id")
      .notNull()
      .references(() => studioTasks.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    revoked: boolean("revoked").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("shares_task_idx").on(t.taskId)],
);

export type LedgerKind = "grant" | "charge" | "refund";

/**
 * Every change to a user's credits (lib/credits): grants (the opening allowance, an admin's
 * change of it), charges (a task, negative) and refunds (a failed task). A user's balance is
 * the sum of their rows. A charge is written in the transaction that writes its task's row; a
 * refund in the one that marks the task failed. Rows are never updated or deleted: deleting a
 * task keeps its charge (task_id names no row then, so it has no foreign key).
 */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<LedgerKind>().notNull(),
    /** Credits, signed: charges are negative; a grant lowering an allowance is too. */
    amount: integer("amount").notNull(),
    taskId: text("task_id"),
    /** The admin who made a grant; null for the opening allowance. */
    actorId: text("actor_id").references(() => users.id),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("credit_ledger_user_idx").on(t.userId, t.createdAt),
    // One charge and at most one refund per task, whatever retries or racing refreshes do.
    uniqueIndex("credit_ledger_task_kind_idx")
      .on(t.taskId, t.kind)
      .where(sql`${t.taskId} is not null`),
    // One opening allowance per account.
    uniqueIndex("credit_ledger_opening_idx")
      .on(t.userId)
      .where(sql`${t.kind} = 'grant' and ${t.actorId} is null`),
    check("credit_ledger_kind", sql`${t.kind} in ('grant', 'charge', 'refund')`),
    check(
      "credit_ledger_sign",
      sql`(${t.kind} = 'charge' and ${t.amount} <= 0) or (${t.kind} = 'refund' and ${t.amount} >= 0) or ${t.kind} = 'grant'`,
    ),
  ],
);

/** Errors from the x3d service the studio met (creating, querying, copying), for the admin page. */
export const serviceErrors = pgTable(
  "service_errors",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** What the studio was doing: create, query, copy, balance. */
    operation: text("operation").notNull(),
    /** The service's code, when it answered with one. */
    code: integer("code"),
    message: text("message").notNull(),
    taskId: text("task_id"),
  },
  (t) => [index("service_errors_at_idx").on(t.at)],
);

export type User = typeof users.$inferSelect;
export type Upload = typeof uploads.$inferSelect;
export type StudioTask = typeof studioTasks.$inferSelect;
export type Share = typeof shares.$inferSelect;
