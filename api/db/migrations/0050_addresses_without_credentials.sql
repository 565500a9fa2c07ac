-- Addresses are stored, listed and shown, so a user name and password written into one are dropped
-- (docs/decisions/016): the websites form and '+ Links' refuse them, and a sitemap's pages and the
-- sitemaps robots.txt and indexes name lose them when read. Rows stored before keep them; this
-- drops them the same way. `^scheme://userinfo@` is an address's credentials; in free text (a
-- last error) any address's. A page or sitemap stored both with and without them, or with two of them, is one
-- page: the one without (else the first stored) stays, the others go with their passages.
DELETE FROM "urls" AS "u"
WHERE "u"."url" ~* '^[a-z][a-z0-9+.-]*://[^/?#@]*@'
  AND EXISTS (
    SELECT 1 FROM "urls" AS "v"
    WHERE "v"."website_id" = "u"."website_id" AND "v"."id" <> "u"."id"
      AND regexp_replace("v"."url", '^([a-z][a-z0-9+.-]*://)[^/?#@]*@', '\1', 'i')
        = regexp_replace("u"."url", '^([a-z][a-z0-9+.-]*://)[^/?#@]*@', '\1', 'i')
      AND ("v"."url" !~* '^[a-z][a-z0-9+.-]*://[^/?#@]*@' OR "v"."id" < "u"."id")
  );--> statement-breakpoint
UPDATE "urls" SET "url" = regexp_replace("url", '^([a-z][a-z0-9+.-]*://)[^/?#@]*@', '\1', 'i')
WHERE "url" ~* '^[a-z][a-z0-9+.-]*://[^/?#@]*@';--> statement-breakpoint
UPDATE "urls" SET "metadata" = jsonb_set("metadata", '{error_message}', to_jsonb(regexp_replace("metadata"->>'error_message', '([a-z][a-z0-9+.-]*://)[^\s/?#@]+@', '\1', 'gi')))
WHERE "metadata"->>'error_message' ~* '[a-z][a-z0-9+.-]*://[^\s/?#@]+@';--> statement-breakpoint
-- A website's own address: kept as one address per website of a client (docs/decisions/043), so
-- one whose address without them another website already has is left for its people to delete.
UPDATE "websites" AS "w" SET "url" = regexp_replace("w"."url", '^([a-z][a-z0-9+.-]*://)[^/?#@]*@', '\1', 'i')
WHERE "w"."url" ~* '^[a-z][a-z0-9+.-]*://[^/?#@]*@'
  AND NOT EXISTS (
    SELECT 1 FROM "websites" AS "o"
    WHERE "o"."app_id" = "w"."app_id" AND "o"."id" <> "w"."id"
      AND "o"."url" = regexp_replace("w"."url", '^([a-z][a-z0-9+.-]*://)[^/?#@]*@', '\1', 'i')
  );--> statement-breakpoint
UPDATE "websites" SET
  "seed_urls" = (
    SELECT coalesce(jsonb_agg("e" ORDER BY "n"), '[]'::jsonb) FROM (
      SELECT DISTINCT ON ("e") "e", "n" FROM (
        SELECT regexp_replace("x", '^([a-z][a-z0-9+.-]*://)[^/?#@]*@', '\1', 'i') AS "e", "n"
        FROM jsonb_array_elements_text("seed_urls") WITH ORDINALITY AS "s"("x", "n")
      ) AS "cleaned" ORDER BY "e", "n"
    ) AS "once"
  ),
  "sitemaps" = (
    SELECT coalesce(jsonb_agg("e" ORDER BY "n"), '[]'::jsonb) FROM (
      SELECT DISTINCT ON ("e") "e", "n" FROM (
        SELECT regexp_replace("x", '^([a-z][a-z0-9+.-]*://)[^/?#@]*@', '\1', 'i') AS "e", "n"
        FROM jsonb_array_elements_text("sitemaps") WITH ORDINALITY AS "s"("x", "n")
      ) AS "cleaned" ORDER BY "e", "n"
    ) AS "once"
  ),
  "last_error" = regexp_replace("last_error", '([a-z][a-z0-9+.-]*://)[^\s/?#@]+@', '\1', 'gi')
WHERE "seed_urls"::text ~* '[a-z][a-z0-9+.-]*://[^/?#@" ]*@'
  OR "sitemaps"::text ~* '[a-z][a-z0-9+.-]*://[^/?#@" ]*@'
  OR "last_error" ~* '[a-z][a-z0-9+.-]*://[^\s/?#@]+@';--> statement-breakpoint
UPDATE "websites" AS "w" SET "urls_count" = (SELECT count(*) FROM "urls" WHERE "website_id" = "w"."id")
WHERE "w"."urls_count" <> (SELECT count(*) FROM "urls" WHERE "website_id" = "w"."id");
