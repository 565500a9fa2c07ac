CREATE TABLE "worker_leases" (
	"worker_id" uuid PRIMARY KEY NOT NULL,
	"process" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
ALTER TABLE "urls" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
CREATE INDEX "files_in_flight_idx" ON "files" USING btree ("claimed_by") WHERE "files"."status" = 'sent_for_indexing';--> statement-breakpoint
CREATE INDEX "urls_in_flight_idx" ON "urls" USING btree ("claimed_by") WHERE "urls"."status" in ('sent_for_indexing', 'sent_for_skipping', 'sent_for_deletion');