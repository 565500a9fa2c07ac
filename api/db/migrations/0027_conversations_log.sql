ALTER TABLE "conversations" ADD COLUMN "last_question" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "answered" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "fallback" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "canned" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "disclaimed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "rated_up" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "rated_down" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "down_unreviewed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "reviewed_answers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "trace" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "rating" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "comment" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "rated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "reviewed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "test_results" ADD COLUMN "top_score" real;--> statement-breakpoint
CREATE INDEX "conversations_app_trigger_idx" ON "conversations" USING btree ("app_id","trigger_point","started_at");--> statement-breakpoint
CREATE INDEX "messages_rated_down_idx" ON "messages" USING btree ("app_id","rated_at") WHERE "messages"."rating" = 'down';--> statement-breakpoint
CREATE INDEX "messages_words_idx" ON "messages" USING gin (to_tsvector('simple', "text"));--> statement-breakpoint
-- Conversations stored before this migration: their list columns counted from their messages.
UPDATE "conversations" c SET
  "last_question" = coalesce((SELECT m."text" FROM "messages" m WHERE m."conversation_id" = c."id" AND m."role" = 'user' ORDER BY m."id" DESC LIMIT 1), ''),
  "answered" = (SELECT count(*) FROM "messages" m WHERE m."conversation_id" = c."id" AND m."outcome" = 'answered'),
  "fallback" = (SELECT count(*) FROM "messages" m WHERE m."conversation_id" = c."id" AND m."outcome" = 'fallback'),
  "canned" = (SELECT count(*) FROM "messages" m WHERE m."conversation_id" = c."id" AND m."outcome" = 'canned'),
  "disclaimed" = (SELECT count(*) FROM "messages" m WHERE m."conversation_id" = c."id" AND m."outcome" = 'disclaimed');
