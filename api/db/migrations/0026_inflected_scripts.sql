-- Passages holding Cyrillic, Arabic or Hangul letters were indexed with those words as written
-- (unstemmed, Arabic's article and vowel signs on them, Korean's particles and endings on them),
-- so a question asking in another form of a word missed them: their lexemes are made again from
-- the text by the recovery job (api/knowledge/relexeme.ts).
UPDATE "chunks" SET "lexemes_stale" = true
WHERE "text" ~ '[\u0400-\u04ff\u0600-\u06ff\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]';
