-- Migration 0050 dropped the user names and passwords written into stored addresses, and left the
-- records of what was answered as they were (docs/decisions/016). Those records are shown: an
-- answer's sources, the passages it found closest and its trace in a transcript, a test result's
-- sources in a run, Insights' cited pages and closest passages, History's before and after (which
-- a restore writes back). So rows stored before 0050 lose them too, the same way: as a browser reads
-- an address, its user name and password run to the last @ before the path, query or fragment.
CREATE FUNCTION "migration_0054_text"(words text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT regexp_replace(words, '([a-z][a-z0-9+.-]*://)[^\s/?#"\\]+@', '\1', 'gi') $$;--> statement-breakpoint
-- A JSON value's addresses, wherever they stand in it (its text as JSON writes it: a quote inside a
-- string is escaped, so an address never runs past its string).
CREATE FUNCTION "migration_0054_json"(value jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS
$$ SELECT "migration_0054_text"(value::text)::jsonb $$;--> statement-breakpoint
-- Whether a text names an address with them: one match a row, where rewriting would be several.
CREATE FUNCTION "migration_0054_named"(words text) RETURNS boolean LANGUAGE sql IMMUTABLE AS
$$ SELECT words ~* '[a-z][a-z0-9+.-]*://[^\s/?#"\\]+@' $$;--> statement-breakpoint
UPDATE "messages" SET
  "sources" = "migration_0054_json"("sources"),
  "closest" = "migration_0054_json"("closest"),
  "trace" = "migration_0054_json"("trace")
WHERE "migration_0054_named"(concat("sources"::text, "closest"::text, "trace"::text));--> statement-breakpoint
UPDATE "test_results" SET "sources" = "migration_0054_json"("sources")
WHERE "migration_0054_named"("sources"::text);--> statement-breakpoint
UPDATE "insight_questions" SET "closest" = "migration_0054_json"("closest")
WHERE "migration_0054_named"("closest"::text);--> statement-breakpoint
-- A cited page is counted by its address a day: one cited with and without them (or with two of
-- them) is one page, its counts added together.
WITH "named" AS (
  DELETE FROM "insight_sources" WHERE "migration_0054_named"("url")
  RETURNING "app_id", "trigger_point", "environment", "day", "migration_0054_text"("url") AS "url", "title", "cited"
)
INSERT INTO "insight_sources" ("app_id", "trigger_point", "environment", "day", "url", "title", "cited")
SELECT "app_id", "trigger_point", "environment", "day", "url", min("title"), sum("cited")::integer
FROM "named" GROUP BY "app_id", "trigger_point", "environment", "day", "url"
ON CONFLICT ("app_id", "day", "trigger_point", "environment", "url")
DO UPDATE SET "cited" = "insight_sources"."cited" + "excluded"."cited";--> statement-breakpoint
UPDATE "config_changes" SET
  "summary" = "migration_0054_text"("summary"),
  "before" = "migration_0054_json"("before"),
  "after" = "migration_0054_json"("after")
WHERE "migration_0054_named"(concat("summary", "before"::text, "after"::text));--> statement-breakpoint
DROP FUNCTION "migration_0054_named"(text);--> statement-breakpoint
DROP FUNCTION "migration_0054_json"(jsonb);--> statement-breakpoint
DROP FUNCTION "migration_0054_text"(text);
