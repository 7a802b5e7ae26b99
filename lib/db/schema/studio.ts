/** Tables of the studio: accounts, staged uploads, tasks as the studio tracks them, share links. */
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

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
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * Throttled events per key (failed sign-ins per address, per address and e-mail; sign-ups per
 * address: lib/auth/throttle.ts), to slow down guessing and bulk sign-ups.
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
  (t) => [index("studio_tasks_user_idx").on(t.userId, t.createdAt), index("studio_tasks_service_idx").on(t.serviceTaskId)],
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

export type User = typeof users.$inferSelect;
export type Upload = typeof uploads.$inferSelect;
export type StudioTask = typeof studioTasks.$inferSelect;
export type Share = typeof shares.$inferSelect;
