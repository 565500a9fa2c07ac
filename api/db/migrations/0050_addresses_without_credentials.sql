-- Addresses are stored, listed and shown, so a user name and password written into one are dropped
-- (docs/decisions/016): the websites form and '+ Links' refuse them, and a sitemap's pages and the
-- sitemaps robots.txt and indexes name lose them when read. Rows stored before keep them; this
-- drops them the same way, through functions that go again at the end: one for an address, one
-- for any address in free text (a last error), one for which website an address names. As a
-- browser reads an address, its user name and password run to the last @ before the path.
CREATE FUNCTION "migration_0050_address"(address text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT regexp_replace(address, '^([a-z][a-z0-9+.-]*://)[^/?#]*@', '\1', 'i') $$;--> statement-breakpoint
CREATE FUNCTION "migration_0050_text"(words text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT regexp_replace(words, '([a-z][a-z0-9+.-]*://)[^\s/?#]+@', '\1', 'gi') $$;--> statement-breakpoint
-- Which website an address names, as decision 043 compares them: scheme and host in any case and
-- without a default port, the path without a trailing slash, the query kept, the fragment dropped.
CREATE FUNCTION "migration_0050_website"(address text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT regexp_replace(lower(substring("a" FROM '^[^/?#]*//[^/?#]*')), '^(https://.*):443$|^(http://.*):80$', '\1\2')
     || regexp_replace(coalesce(substring("a" FROM '^[^/?#]*//[^/?#]*([^?#]*)'), ''), '/$', '')
     || coalesce(substring("a" FROM '^[^?#]*(\?[^#]*)'), '')
   FROM (SELECT "migration_0050_address"(address) AS "a") AS "cleaned" $$;--> statement-breakpoint
CREATE FUNCTION "migration_0050_addresses"(addresses jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS
$$ SELECT coalesce(jsonb_agg("e" ORDER BY "n"), '[]'::jsonb) FROM (
     SELECT DISTINCT ON ("e") "e", "n" FROM (
       SELECT "migration_0050_address"("x") AS "e", "n" FROM jsonb_array_elements_text(addresses) WITH ORDINALITY AS "s"("x", "n")
     ) AS "cleaned" ORDER BY "e", "n"
   ) AS "once" $$;--> statement-breakpoint
-- A page stored both with and without them, or with two of them, is one page: the one without
-- (else the first stored) stays, the others go with their passages.
DELETE FROM "urls" AS "u"
WHERE "u"."url" <> "migration_0050_address"("u"."url")
  AND EXISTS (
    SELECT 1 FROM "urls" AS "v"
    WHERE "v"."website_id" = "u"."website_id" AND "v"."id" <> "u"."id"
      AND "migration_0050_address"("v"."url") = "migration_0050_address"("u"."url")
      AND ("v"."url" = "migration_0050_address"("v"."url") OR "v"."id" < "u"."id")
  );--> statement-breakpoint
UPDATE "urls" SET "url" = "migration_0050_address"("url") WHERE "url" <> "migration_0050_address"("url");--> statement-breakpoint
UPDATE "urls" SET "metadata" = jsonb_set("metadata", '{error_message}', to_jsonb("migration_0050_text"("metadata"->>'error_message')))
WHERE "metadata"->>'error_message' <> "migration_0050_text"("metadata"->>'error_message');--> statement-breakpoint
-- A website's own address: kept as one address per website of a client (docs/decisions/043), so
-- one whose address without them another website already has is left for its people to delete,
-- and of two that would both come to the same address only the first stored takes it.
UPDATE "websites" AS "w" SET "url" = "migration_0050_address"("w"."url")
WHERE "w"."url" <> "migration_0050_address"("w"."url")
  AND NOT EXISTS (
    SELECT 1 FROM "websites" AS "o"
    WHERE "o"."app_id" = "w"."app_id" AND "o"."id" <> "w"."id"
      AND "migration_0050_website"("o"."url") = "migration_0050_website"("w"."url")
      AND ("o"."url" = "migration_0050_address"("o"."url") OR "o"."id" < "w"."id")
  );--> statement-breakpoint
UPDATE "websites" SET
  "seed_urls" = "migration_0050_addresses"("seed_urls"),
  "sitemaps" = "migration_0050_addresses"("sitemaps"),
  "last_error" = "migration_0050_text"("last_error")
WHERE "seed_urls" <> "migration_0050_addresses"("seed_urls")
  OR "sitemaps" <> "migration_0050_addresses"("sitemaps")
  OR "last_error" <> "migration_0050_text"("last_error");--> statement-breakpoint
UPDATE "websites" AS "w" SET "urls_count" = (SELECT count(*) FROM "urls" WHERE "website_id" = "w"."id")
WHERE "w"."urls_count" <> (SELECT count(*) FROM "urls" WHERE "website_id" = "w"."id");--> statement-breakpoint
DROP FUNCTION "migration_0050_addresses"(jsonb);--> statement-breakpoint
DROP FUNCTION "migration_0050_text"(text);--> statement-breakpoint
DROP FUNCTION "migration_0050_website"(text);--> statement-breakpoint
DROP FUNCTION "migration_0050_address"(text);
