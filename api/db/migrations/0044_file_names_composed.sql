-- Uploaded files' names are kept composed (NFC) from now on. Names uploaded from macOS came decomposed
-- (NFD): they looked like the name a keyboard types and never equalled it, so a search missed them and
-- the same name uploaded twice was two files. No key holds a file's name; a client that uploaded one
-- name both ways keeps both rows, now of one name, and deletes the one it does not want.
UPDATE "files" SET "file_name" = normalize("file_name", NFC) WHERE "file_name" IS NOT NFC NORMALIZED;
