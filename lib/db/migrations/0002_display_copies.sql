ALTER TABLE "studio_tasks" ADD COLUMN "display_file" text;--> statement-breakpoint
ALTER TABLE "studio_tasks" ADD COLUMN "preview_file" text;--> statement-breakpoint
ALTER TABLE "studio_tasks" ADD COLUMN "display_state" text;