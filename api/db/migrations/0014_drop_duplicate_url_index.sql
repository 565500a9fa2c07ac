-- The unique key urls_website_url_key holds the same columns and serves the same reads: this copy only cost
-- every insert and update of a URL an index entry more.
DROP INDEX "urls_website_url_idx";
