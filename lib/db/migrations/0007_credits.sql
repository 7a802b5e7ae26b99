CREATE TABLE "credit_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"task_id" text,
	"actor_id" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_ledger_kind" CHECK ("credit_ledger"."kind" in ('grant', 'charge', 'refund')),
	CONSTRAINT "credit_ledger_sign" CHECK (("credit_ledger"."kind" = 'charge' and "credit_ledger"."amount" <= 0) or ("credit_ledger"."kind" = 'refund' and "credit_ledger"."amount" >= 0) or "credit_ledger"."kind" = 'grant')
);
--> statement-breakpoint
CREATE TABLE "service_errors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"operation" text NOT NULL,
	"code" integer,
	"message" text NOT NULL,
	"task_id" text
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_ledger_user_idx" ON "credit_ledger" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_task_kind_idx" ON "credit_ledger" USING btree ("task_id","kind") WHERE "credit_ledger"."task_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_opening_idx" ON "credit_ledger" USING btree ("user_id") WHERE "credit_ledger"."kind" = 'grant' and "credit_ledger"."actor_id" is null;--> statement-breakpoint
CREATE INDEX "service_errors_at_idx" ON "service_errors" USING btree ("at");--> statement-breakpoint
-- Tasks from before per-user credits keep what they cost: a charge each, and a refund for the failed ones.
INSERT INTO "credit_ledger" ("user_id", "kind", "amount", "task_id", "note", "created_at")
  SELECT "user_id", 'charge', -"cost", "id", 'task', "created_at" FROM "studio_tasks";--> statement-breakpoint
INSERT INTO "credit_ledger" ("user_id", "kind", "amount", "task_id", "note", "created_at")
  SELECT "user_id", 'refund', "cost", "id", 'task failed', "updated_at" FROM "studio_tasks" WHERE "state" = 'failed';
