ALTER TABLE "urls" ADD COLUMN "etag" text;--> statement-breakpoint
ALTER TABLE "urls" ADD COLUMN "last_modified" text;--> statement-breakpoint
ALTER TABLE "urls" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "urls" ADD COLUMN "changed_at" timestamp with time zone;--> statement-breakpoint
-- Pages indexed before were last checked, and last changed, when they were indexed.
UPDATE "urls" SET "checked_at" = "indexed_at", "changed_at" = "indexed_at" WHERE "indexed_at" IS NOT NULL;
