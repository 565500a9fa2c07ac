CREATE TABLE "insight_question_months" (
	"app_id" integer NOT NULL,
	"trigger_point" text NOT NULL,
	"environment" text NOT NULL,
	"month" date NOT NULL,
	"question_key" text NOT NULL,
	"asked" integer DEFAULT 0 NOT NULL,
	"unanswered" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insight_question_months_app_id_month_trigger_point_environment_question_key_pk" PRIMARY KEY("app_id","month","trigger_point","environment","question_key")
);
--> statement-breakpoint
ALTER TABLE "insight_question_months" ADD CONSTRAINT "insight_question_months_app_id_client_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."client_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "insight_questions_unanswered_idx" ON "insight_questions" USING btree ("app_id","question_key","day") WHERE "insight_questions"."unanswered" > 0;