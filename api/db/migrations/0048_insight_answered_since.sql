-- Whether an unanswered question was answered since: each day's row keeps the answer id of its
-- latest unanswered ask beside the latest ask's (asked_as_answer). Rows where every ask went
-- unanswered are filled exactly (the latest ask is the latest unanswered one); rows with some
-- answered asks cannot be told apart from the rollup and stay null, which Insights reads as "not known".
ALTER TABLE "insight_questions" ADD COLUMN "last_fallback_answer" integer;--> statement-breakpoint
UPDATE "insight_questions" SET "last_fallback_answer" = "asked_as_answer" WHERE "unanswered" > 0 AND "unanswered" = "asked";--> statement-breakpoint
CREATE INDEX "insight_questions_latest_idx" ON "insight_questions" USING btree ("app_id","question_key","day");
