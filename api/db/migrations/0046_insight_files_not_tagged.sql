-- The uploaded files an unanswered question's latest ask left out as not tagged for the environment it
-- was asked in: Insights said the knowledge store lacked a page when the file that answers was there,
-- untagged. Asks recorded before keep none (their traces did not name them).
ALTER TABLE "insight_questions" ADD COLUMN "files_not_tagged" jsonb DEFAULT '[]'::jsonb NOT NULL;