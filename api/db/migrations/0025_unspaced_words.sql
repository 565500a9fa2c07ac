ALTER TABLE "chunks" ADD COLUMN "lexemes_stale" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "chunks_lexemes_stale_idx" ON "chunks" USING btree ("id") WHERE "chunks"."lexemes_stale";--> statement-breakpoint
-- Passages holding Chinese, Japanese, Thai, Lao, Burmese or Khmer letters were indexed with each run
-- of those letters as one word, which no question meets: their lexemes are made again from the text.
UPDATE "chunks" SET "lexemes_stale" = true
WHERE "text" ~ '[\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]';
