-- A chunk's row (about 850 characters of text and a tsvector of about 1.1 KB) is just over the 2 KB
-- at which Postgres moves its largest value out of line: more than half the chunks had their tsvector
-- written to the TOAST table (a second row and a second index entry per chunk), uncompressed, and
-- read back from there by every relevance score. Rows up to a page now stay whole; the total size is
-- the same (docs/decisions/017-main-content-extraction.md).
ALTER TABLE "chunks" SET (toast_tuple_target = 8160);
