ALTER TABLE "insight_questions" ADD COLUMN "asked_as" text;--> statement-breakpoint
ALTER TABLE "insight_questions" ADD COLUMN "asked_as_answer" integer;