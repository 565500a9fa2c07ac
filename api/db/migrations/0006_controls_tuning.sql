CREATE TABLE "ai_probings" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"internal_name" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"prompt_input_raw" text DEFAULT '' NOT NULL,
	"trigger_point" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "control_topics" (
	"id" integer PRIMARY KEY DEFAULT nextval('controls_id_seq') NOT NULL,
	"app_id" integer NOT NULL,
	"internal_name" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"prompt_input_raw" text NOT NULL,
	"trigger_point" text DEFAULT '' NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finetunings" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"trigger_point" text DEFAULT '' NOT NULL,
	"finetuning_type" text NOT NULL,
	"pattern" text DEFAULT '' NOT NULL,
	"penalty" double precision,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "finetunings_penalty_range" CHECK ("finetunings"."penalty" is null or ("finetunings"."penalty" >= 0 and "finetunings"."penalty" <= 1))
);
--> statement-breakpoint
CREATE TABLE "input_prompts" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"internal_name" text NOT NULL,
	"prompt_input_raw" text NOT NULL,
	"trigger_point" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_probings" ADD CONSTRAINT "ai_probings_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "control_topics" ADD CONSTRAINT "control_topics_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finetunings" ADD CONSTRAINT "finetunings_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "input_prompts" ADD CONSTRAINT "input_prompts_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_probings_app_trigger_name_key" ON "ai_probings" USING btree ("app_id","trigger_point","internal_name");--> statement-breakpoint
CREATE UNIQUE INDEX "control_topics_topic_key" ON "control_topics" USING btree ("app_id","trigger_point","internal_name",lower("prompt_input_raw"));--> statement-breakpoint
CREATE INDEX "finetunings_app_idx" ON "finetunings" USING btree ("app_id","finetuning_type","trigger_point");--> statement-breakpoint
CREATE UNIQUE INDEX "finetunings_penalty_key" ON "finetunings" USING btree ("app_id","trigger_point","finetuning_type","pattern") WHERE "finetunings"."finetuning_type" <> 'html_tags_to_remove';--> statement-breakpoint
CREATE UNIQUE INDEX "input_prompts_app_trigger_key" ON "input_prompts" USING btree ("app_id","trigger_point","internal_name");