ALTER TABLE "insight_questions" ADD COLUMN "fallback_reason" text;--> statement-breakpoint
ALTER TABLE "insight_questions" ADD COLUMN "left_out" boolean DEFAULT false NOT NULL;