-- Pages and files that failed on our side before their failures were said in one plain sentence
-- (the database's refused statement with its SQL text and values, or a storage error naming the
-- stored file's path on the server) keep that text until indexed again. They now say what a
-- failure on our side says today (api/knowledge/crawl/index-website.ts, api/files/pipeline.ts).
UPDATE "urls" SET "metadata" = jsonb_set("metadata", '{error_message}', to_jsonb('The page could not be saved because of an error on our side, which was logged; index it again to retry.'::text))
WHERE "metadata"->>'error_message' LIKE 'Failed query:%' OR "metadata"->>'error_message' ~ '^E[A-Z]{2,}: ';--> statement-breakpoint
UPDATE "files" SET "error_message" = 'The file could not be indexed because of an error on our side, which was logged; index it again to retry.'
WHERE "error_message" LIKE 'Failed query:%' OR "error_message" ~ '^E[A-Z]{2,}: ';
