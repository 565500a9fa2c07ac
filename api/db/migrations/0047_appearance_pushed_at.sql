-- Production's last push time gets a column of its own. It was read from the production row's
-- updated_at, which an import also moves; an import writes production's values without being a
-- push. Until now every write to a production row was a push (a save to production or a restore).
ALTER TABLE "appearances" ADD COLUMN "pushed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "appearances" SET "pushed_at" = "updated_at" WHERE "environment" = 'prod';
