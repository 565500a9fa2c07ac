-- Every statement that writes to one of the console's tables tells listeners that something
-- changed ('console_changed', no payload), from whichever process or connection it came: the
-- console keeps a signed-in page's rendering for a few seconds only while no such notice arrived
-- (docs/decisions/019-fast-pages.md). Statement triggers cost one notice a statement (Postgres
-- folds repeated ones of a transaction into one), not one a row. A table added later needs the
-- same trigger: api/db/change-notices.test.ts fails for a table without it.
CREATE OR REPLACE FUNCTION console_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('console_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  name text;
BEGIN
  FOR name IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
    EXECUTE format('CREATE TRIGGER console_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION console_changed()', name);
  END LOOP;
END
$$;
