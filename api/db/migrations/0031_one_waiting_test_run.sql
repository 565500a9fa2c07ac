ALTER TABLE "test_runs" ADD COLUMN "start_after" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Runs queued twice for one agent and environment before this rule (asked at the same moment) become
-- the first of them: a waiting run has no results yet, and the one kept asks the same questions. The
-- jobs of those removed find no run and end as skipped.
DELETE FROM "test_runs" AS "later" USING "test_runs" AS "first"
WHERE "later"."status" = 'queued' AND "first"."status" = 'queued' AND "first"."app_id" = "later"."app_id"
  AND "first"."trigger_point" = "later"."trigger_point" AND "first"."environment" = "later"."environment"
  AND "first"."id" < "later"."id";--> statement-breakpoint
CREATE UNIQUE INDEX "test_runs_one_waiting" ON "test_runs" USING btree ("app_id","trigger_point","environment")
  WHERE "test_runs"."status" = 'queued';
