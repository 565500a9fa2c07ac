CREATE TABLE "controls" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"internal_name" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"prompt_input_raw" text DEFAULT '' NOT NULL,
	"trigger_point" text DEFAULT '' NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer,
	"file_type" text NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "controls" ADD CONSTRAINT "controls_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "controls_app_trigger_name_key" ON "controls" USING btree ("app_id","trigger_point","internal_name");--> statement-breakpoint
CREATE INDEX "stored_files_app_type_idx" ON "stored_files" USING btree ("app_id","file_type","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "stored_files_key" ON "stored_files" USING btree ("storage_key");--> statement-breakpoint
CREATE UNIQUE INDEX "agents_app_site_code_key" ON "agents" USING btree ("app_id","site_code");