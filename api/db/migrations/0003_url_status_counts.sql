CREATE TABLE "url_status_counts" (
	"website_id" integer NOT NULL,
	"status" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "url_status_counts_website_id_status_pk" PRIMARY KEY("website_id","status")
);
--> statement-breakpoint
CREATE INDEX "urls_website_url_idx" ON "urls" USING btree ("website_id","url");--> statement-breakpoint
CREATE FUNCTION url_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Sum old rows as -1 and new rows as +1 per (website, status): one upsert per key touched,
  -- however many URLs the statement changed.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO url_status_counts AS c (website_id, status, n)
      SELECT website_id, status, count(*) FROM new_rows GROUP BY 1, 2
      ON CONFLICT (website_id, status) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO url_status_counts AS c (website_id, status, n)
      SELECT website_id, status, -count(*) FROM old_rows GROUP BY 1, 2
      ON CONFLICT (website_id, status) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO url_status_counts AS c (website_id, status, n)
      SELECT website_id, status, sum(d) FROM (
        SELECT website_id, status, 1 AS d FROM new_rows
        UNION ALL
        SELECT website_id, status, -1 AS d FROM old_rows
      ) changes GROUP BY 1, 2 HAVING sum(d) <> 0
      ON CONFLICT (website_id, status) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  DELETE FROM url_status_counts WHERE n = 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER urls_counts_insert AFTER INSERT ON urls REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION url_status_counts_apply();--> statement-breakpoint
CREATE TRIGGER urls_counts_update AFTER UPDATE ON urls REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION url_status_counts_apply();--> statement-breakpoint
CREATE TRIGGER urls_counts_delete AFTER DELETE ON urls REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION url_status_counts_apply();--> statement-breakpoint
INSERT INTO url_status_counts (website_id, status, n) SELECT website_id, status, count(*) FROM urls GROUP BY 1, 2;
