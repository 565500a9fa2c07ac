-- Lexemes are made by the application (api/knowledge/lexemes.ts) and stored as given; rows keep the
-- lexemes Postgres made for them. A row inserted without any gets Postgres' own, as before.
ALTER TABLE "chunks" ALTER COLUMN "tsv" DROP EXPRESSION;--> statement-breakpoint
CREATE FUNCTION chunks_default_tsv() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.tsv := to_tsvector('english', coalesce(NEW.text, ''));
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER chunks_default_tsv BEFORE INSERT ON "chunks"
  FOR EACH ROW WHEN (NEW.tsv IS NULL) EXECUTE FUNCTION chunks_default_tsv();
