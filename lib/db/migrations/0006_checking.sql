ALTER TABLE "studio_tasks" ALTER COLUMN "service_task_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "studio_tasks" ADD COLUMN "unknown_answers" integer DEFAULT 0 NOT NULL;