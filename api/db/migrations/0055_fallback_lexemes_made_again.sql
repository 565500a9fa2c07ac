-- A row inserted without lexemes still gets Postgres' own at once (migration 0013), and is marked to
-- have them made again by the application (api/knowledge/index/relexeme.ts, on the scheduled recovery):
-- Postgres' English stemmer changes between major versions (19's newer Snowball stems "international"
-- as "internat", 18's as "intern"), and questions are always stemmed by the application's.
CREATE OR REPLACE FUNCTION chunks_default_tsv() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.tsv := to_tsvector('english', coalesce(NEW.text, ''));
  NEW.lexemes_stale := true;
  RETURN NEW;
END $$;
