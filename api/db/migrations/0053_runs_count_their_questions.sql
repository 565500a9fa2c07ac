-- A run counted its questions as its agent holds them now, so an import during a run read "7 of 507"
-- for a run asking 12. It now keeps the count it starts with; a run that was running when this ran has
-- none and keeps being counted as before.
ALTER TABLE "test_runs" ADD COLUMN "questions" integer;