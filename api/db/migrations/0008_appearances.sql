CREATE TABLE "appearances" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"trigger_point" text DEFAULT '' NOT NULL,
	"environment" text NOT NULL,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appearances" ADD CONSTRAINT "appearances_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appearances_app_trigger_env_key" ON "appearances" USING btree ("app_id","trigger_point","environment");