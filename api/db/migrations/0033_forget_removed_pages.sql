-- Skipped and deleted pages lost their passages but kept the hash and validators of the text they had,
-- so indexing one again found it unchanged and marked it indexed with no passages. Forget them.
UPDATE "urls" SET "content_hash" = NULL, "etag" = NULL, "last_modified" = NULL
WHERE "status" IN ('skipped', 'deleted', 'failed_to_skip', 'failed_to_delete') AND "content_hash" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "chunks" WHERE "chunks"."url_id" = "urls"."id");
