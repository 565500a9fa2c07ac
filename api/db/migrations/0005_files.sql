CREATE TABLE "files" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"upload_key" text NOT NULL,
	"storage_key" text,
	"size" integer,
	"page_count" integer,
	"title" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending_upload' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"added_by" integer,
	"error_message" text,
	"content_hash" text,
	"indexed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chunks" ALTER COLUMN "url_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "file_id" integer;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_app_idx" ON "files" USING btree ("app_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "files_upload_key" ON "files" USING btree ("upload_key");--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chunks_file_idx" ON "chunks" USING btree ("file_id","position");--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_one_source" CHECK (num_nonnulls("chunks"."url_id", "chunks"."file_id") = 1);