ALTER TABLE "conversations" ADD COLUMN "small_talk" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "insight_days" ADD COLUMN "small_talk" integer DEFAULT 0 NOT NULL;