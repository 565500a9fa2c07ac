import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { fieldsOf } from "../words/lexemes";
import {
  currentVocabulary,
  forgetVocabularies,
  markVocabularyStale,
  MAX_PASSAGES_READ,
  passagesHolding,
} from "./vocabulary";

/**
 * What BM25 needs to know about a client's knowledge store: how many passages it holds, their
 * average length, and in how many passages each word occurs. Counting these on every question
 * would cost more than the retrieval itself, so they are kept per client for a minute (and
 * forgotten when the client's passages are replaced): relevance weights need to be about right,
 * not exact to the last page indexed. A word's count is kept ten minutes through those refreshes,
 * unless it was 0: a word the store lacks is asked again each minute, as retrieval reads such a
 * word as a misspelling. Counts come from the store's words as last read (vocabulary.ts: one read
 * gives them all) while that read is current; otherwise, and for a word the read lacks, from the
 * index (up to 5,000 passages: tens of milliseconds for a common word on a large store).
 */
export interface CorpusStats {
  passages: number;
  /** Average number of distinct stems per passage (tsvector length). */
  averageLength: number;
  /** Average number of distinct stems in a passage's title and headings (its field-weight positions). */
  averageFieldLength: number;
  /** Passages holding a stem, for the stems asked about so far. */
  frequencies: Map<string, number>;
  measuredAt: number;
  /** When the counts in `frequencies` began to be gathered. */
  frequenciesSince: number;
}

const KEEP_MS = 60_000;
const KEEP_FREQUENCIES_MS = 600_000;
/** Word counts kept per client at most (a few hundred kilobytes); past it they are gathered again. */
const MAX_FREQUENCIES = 50_000;
/** Passages sampled for the average length. */
const LENGTH_SAMPLE = 1_000;
/**
 * Passages counted per word at most: a word in more passages than this is common either way, and
 * the count stays cheap on any store.
 */
export const FREQUENCY_CAP = 5_000;

const byClient = new Map<number, CorpusStats>();

/** Forget a client's figures (its passages changed): the next question measures again. */
export function forgetCorpusStats(appId: number) {
  byClient.delete(appId);
  markVocabularyStale(appId);
}

/**
 * Forget every client's figures and words: for a process that opens another database whose clients
 * reuse the same ids (a benchmark's next store, the next test file in a test runner's process).
 */
export function forgetEveryClientsStats() {
  byClient.clear();
  forgetVocabularies();
}

/** The client's figures, with the passage counts of `lexemes` known. */
export async function corpusStats(appId: number, lexemes: string[], db: Database): Promise<CorpusStats> {
  let stats = byClient.get(appId);
  if (!stats || Date.now() - stats.measuredAt > KEEP_MS) {
    const measuredAt = Date.now();
    const previous =
      stats && measuredAt - stats.frequenciesSince <= KEEP_FREQUENCIES_MS && stats.frequencies.size <= MAX_FREQUENCIES
        ? stats
        : null;
    const [row] = rowsOf<{ passages: number; average_length: number | null; average_field_length: number | null }>(
      await db.execute(sql`
      select (select count(*)::int from chunks where chunks.app_id = ${appId}) as passages, sample.average_length, sample.average_field_length
      from (select avg(length(sampled.tsv))::float8 as average_length, avg(length(${fieldsOf(sql`sampled.tsv`)}))::float8 as average_field_length
        from (select chunks.tsv from chunks where chunks.app_id = ${appId} limit ${LENGTH_SAMPLE}) sampled) sample`),
    );
    stats = {
      passages: Number(row.passages),
      averageLength: Number(row.average_length ?? 0) || 1,
      averageFieldLength: Number(row.average_field_length ?? 0) || 1,
      measuredAt,
      frequencies: new Map(previous ? [...previous.frequencies].filter(([, passages]) => passages > 0) : []),
      frequenciesSince: previous?.frequenciesSince ?? measuredAt,
    };
    byClient.set(appId, stats);
  }
  let unknown = lexemes.filter((lexeme) => !stats.frequencies.has(lexeme));
  // The store's words, once read (in the background, by the first question to need them), give
  // every word's count at once, past the index count's cap too; read from the first
  // MAX_PASSAGES_READ passages of a larger store, they are scaled up to it. Only the words the read
  // lacks (new since, or rare) are counted here.
  const atCap = lexemes.filter((lexeme) => (stats.frequencies.get(lexeme) ?? 0) >= FREQUENCY_CAP);
  const vocabulary = unknown.length || atCap.length ? currentVocabulary(appId, db) : null;
  if (vocabulary) {
    const scale = Math.max(1, stats.passages / MAX_PASSAGES_READ);
    for (const lexeme of [...unknown, ...atCap]) {
      const passages = passagesHolding(vocabulary, lexeme);
      if (passages) stats.frequencies.set(lexeme, Math.min(stats.passages, Math.round(passages * scale)));
    }
    unknown = unknown.filter((lexeme) => !stats.frequencies.has(lexeme));
  }
  if (unknown.length) {
    const counted = rowsOf<{ lexeme: string; passages: number }>(
      await db.execute(sql`
      select asked.word as lexeme, (select count(*)::int from (
          select 1 from chunks where chunks.app_id = ${appId} and chunks.tsv @@ quote_literal(asked.word)::tsquery limit ${FREQUENCY_CAP}) hits) as passages
      from unnest(array[${sql.join(
        unknown.map((lexeme) => sql`${lexeme}`),
        sql`, `,
      )}]::text[]) as asked(word)`),
    );
    for (const row of counted) stats.frequencies.set(row.lexeme, Number(row.passages));
  }
  return stats;
}

/**
 * Inverse document frequency as BM25 weighs it (the +1 keeps it positive for words found in more
 * than half of the passages): rare words count for much, common ones for little.
 */
export function inverseFrequency(passagesWithWord: number, passages: number) {
  return Math.log(1 + (Math.max(passages, passagesWithWord) - passagesWithWord + 0.5) / (passagesWithWord + 0.5));
}
