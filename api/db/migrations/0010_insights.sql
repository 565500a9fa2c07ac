CREATE TABLE "insight_days" (
	"app_id" integer NOT NULL,
	"trigger_point" text NOT NULL,
	"environment" text NOT NULL,
	"day" date NOT NULL,
	"conversations" integer DEFAULT 0 NOT NULL,
	"questions" integer DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"fallback" integer DEFAULT 0 NOT NULL,
	"canned" integer DEFAULT 0 NOT NULL,
	"disclaimed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insight_days_app_id_day_trigger_point_environment_pk" PRIMARY KEY("app_id","day","trigger_point","environment")
);
--> statement-breakpoint
CREATE TABLE "insight_questions" (
	"app_id" integer NOT NULL,
	"trigger_point" text NOT NULL,
	"environment" text NOT NULL,
	"day" date NOT NULL,
	"question_key" text NOT NULL,
	"asked" integer DEFAULT 0 NOT NULL,
	"unanswered" integer DEFAULT 0 NOT NULL,
	"closest" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "insight_questions_app_id_day_trigger_point_environment_question_key_pk" PRIMARY KEY("app_id","day","trigger_point","environment","question_key")
);
--> statement-breakpoint
CREATE TABLE "insight_sources" (
	"app_id" integer NOT NULL,
	"trigger_point" text NOT NULL,
	"environment" text NOT NULL,
	"day" date NOT NULL,
	"url" text NOT NULL,
	"title" text NOT NULL,
	"cited" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insight_sources_app_id_day_trigger_point_environment_url_pk" PRIMARY KEY("app_id","day","trigger_point","environment","url")
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "question_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "closest" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "visitor_profiles" ADD COLUMN "field_score" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "visitor_profiles" ADD COLUMN "is_lead" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "insight_days" ADD CONSTRAINT "insight_days_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_questions" ADD CONSTRAINT "insight_questions_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_sources" ADD CONSTRAINT "insight_sources_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;