import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { searchedFieldsOf } from "./chunk";
import { tsvectorOf } from "../words/lexemes";

/** Passages made again per statement: small enough to keep each update short. */
const BATCH = 500;

/**
 * Passages whose tsvector was made before the words of scripts written without spaces were cut
 * apart (migration 0025 marks them), or before words in Cyrillic, Arabic and Hangul letters were
 * stemmed (migration 0026), get it made again, from their text, title and headings as chunkBlocks
 * makes it, so that a store indexed before answers in Chinese, Japanese, Thai, Russian, Arabic or
 * Korean without every page being fetched again (a refresh leaves an unchanged page's passages as
 * they are).
 * Batches run until none is left or `budgetMs` has passed; the scheduled recovery calls it again.
 * Answers how many passages were made again.
 */
export async function relexemeStalePassages(db: Database, budgetMs = 20_000): Promise<number> {
  const until = Date.now() + budgetMs;
  let done = 0;
  while (Date.now() < until) {
    const stale = rowsOf<{ id: number; text: string; heading_path: string[]; title: string | null }>(
      await db.execute(sql`
      select c.id, c.text, c.heading_path, coalesce(u.title, f.title) as title
      from chunks c left join urls u on u.id = c.url_id left join files f on f.id = c.file_id
      where c.lexemes_stale order by c.id limit ${BATCH}`),
    );
    if (!stale.length) break;
    const made = stale.map((row) => ({
      id: Number(row.id),
      tsv: tsvectorOf(row.text, searchedFieldsOf(row.title ?? undefined, row.heading_path ?? [])),
    }));
    // Matched by id and still marked: a passage written again meanwhile (its page indexed anew) is left as written.
    await db.execute(sql`
      update chunks c set tsv = (made.value->>'tsv')::tsvector, lexemes_stale = false
      from jsonb_array_elements(${JSON.stringify(made)}::jsonb) as made
      where c.id = (made.value->>'id')::int and c.lexemes_stale`);
    done += stale.length;
  }
  return done;
}
