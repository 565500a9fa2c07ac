-- Passages holding Cyrillic or Arabic letters were indexed with those words unstemmed (and Arabic's
-- article and vowel signs left on them), so a question asking in another form of a word missed
-- them: their lexemes are made again from the text by the recovery job (api/knowledge/relexeme.ts).
UPDATE "chunks" SET "lexemes_stale" = true
WHERE "text" ~ '[\u0400-\u04ff\u0600-\u06ff]';
