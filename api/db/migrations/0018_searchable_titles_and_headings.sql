-- Retrieval searches each passage's page title and headings beside its text (BM25F,
-- api/knowledge/search.ts): new passages carry their words in their tsvector at positions of weight
-- B, after the text's. Passages indexed before get them here, made by Postgres' own English
-- configuration (the stems our lexemes follow), so an existing store answers title and heading
-- questions without being indexed again.
UPDATE chunks AS c
SET tsv = c.tsv || setweight(to_tsvector('english', concat_ws(' ', nullif(u.title, ''),
  (SELECT string_agg(heading, ' ') FROM jsonb_array_elements_text(c.heading_path) AS heading))), 'B')
FROM urls AS u
WHERE c.url_id = u.id AND c.tsv IS NOT NULL;
--> statement-breakpoint
UPDATE chunks AS c
SET tsv = c.tsv || setweight(to_tsvector('english', concat_ws(' ', nullif(f.title, ''),
  (SELECT string_agg(heading, ' ') FROM jsonb_array_elements_text(c.heading_path) AS heading))), 'B')
FROM files AS f
WHERE c.file_id = f.id AND c.tsv IS NOT NULL;
