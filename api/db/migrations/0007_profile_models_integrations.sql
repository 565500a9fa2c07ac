CREATE TABLE "integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"external_system" text NOT NULL,
	"usecase" text NOT NULL,
	"environment" text DEFAULT 'staging' NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"model_type" text NOT NULL,
	"name" text NOT NULL,
	"definition" text DEFAULT '' NOT NULL,
	"field_type" text NOT NULL,
	"group" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "program_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"source_url" text NOT NULL,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recommendation_builds" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"job_id" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"method" text,
	"pages" integer DEFAULT 0 NOT NULL,
	"programs" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_fields" ADD CONSTRAINT "profile_fields_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_records" ADD CONSTRAINT "program_records_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommendation_builds" ADD CONSTRAINT "recommendation_builds_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_app_system_key" ON "integrations" USING btree ("app_id","external_system","usecase","environment");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_fields_app_model_name_key" ON "profile_fields" USING btree ("app_id","model_type",lower("name"));--> statement-breakpoint
CREATE INDEX "program_records_app_idx" ON "program_records" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "recommendation_builds_app_idx" ON "recommendation_builds" USING btree ("app_id","id");