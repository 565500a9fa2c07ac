-- The change notices of 0016 fed a page cache that is gone (docs/decisions/019-fast-pages.md):
-- every statement on every table still paid a pg_notify, and on PostgreSQL each NOTIFY takes a
-- cluster-wide lock at commit, on the pipeline's and the chat's write path.
DO $$
DECLARE
  name text;
BEGIN
  FOR name IN SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE t.tgname = 'console_changed' AND n.nspname = 'public' LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS console_changed ON %I', name);
  END LOOP;
END
$$;
--> statement-breakpoint
DROP FUNCTION IF EXISTS console_changed();
