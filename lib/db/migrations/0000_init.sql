CREATE TABLE "engine_clients" (
	"id" text PRIMARY KEY NOT NULL,
	"secret_hash" text NOT NULL,
	"balance" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "engine_clients_balance_nonnegative" CHECK ("engine_clients"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "engine_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engine_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"options" jsonb NOT NULL,
	"inputs" jsonb NOT NULL,
	"cost" integer NOT NULL,
	"refunded" boolean DEFAULT false NOT NULL,
	"result_file" text,
	"cover_file" text,
	"failure" text,
	"callback_url" text,
	"callback_status" text DEFAULT 'none' NOT NULL,
	"callback_attempts" integer DEFAULT 0 NOT NULL,
	"callback_next_at" timestamp with time zone,
	"runs" integer DEFAULT 0 NOT NULL,
	"owner" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "engine_tasks" ADD CONSTRAINT "engine_tasks_client_id_engine_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."engine_clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "engine_tasks_state_idx" ON "engine_tasks" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "engine_tasks_client_state_idx" ON "engine_tasks" USING btree ("client_id","state");--> statement-breakpoint
CREATE INDEX "engine_tasks_callback_idx" ON "engine_tasks" USING btree ("callback_status","callback_next_at");