ALTER TABLE "urls" ADD COLUMN "in_sitemap" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Pages stored before: a sitemap website's pages were read from its sitemaps, but those a refresh
-- found gone from them. Links given by hand cannot be told apart and count as listed once more.
UPDATE "urls" SET "in_sitemap" = true FROM "websites"
WHERE "websites"."id" = "urls"."website_id" AND "websites"."site_map" = 'full_website'
  AND "urls"."sitemap_refresh_review_status" IS DISTINCT FROM 'removed';
