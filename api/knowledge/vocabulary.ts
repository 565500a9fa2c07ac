import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { rowsOf } from "../db/rows";

/**
 * The words of a client's knowledge store, so that a key word of a question found in no passage
 * ("gaurentee", "Telnet" of a page saying "Telenet") can be read as the stored word it nearly is.
 *
 * Read from the passages' tsvectors by Postgres' own `ts_stat` when a question first needs it, and
 * kept a while per client: a word that has since left the store is harmless (retrieval counts the
 * passages holding a correction before using it), and one that arrived since is only missed until
 * the list is read again.
 */
export interface Vocabulary {
  /** Lexemes by length, each with the number of passages holding it when read. */
  byLength: Map<number, { lexeme: string; passages: number }[]>;
  readAt: number;
}

const KEEP_MS = 10 * 60_000;
/** A store with more distinct words than this keeps its commonest (a typo is corrected to a word seen more than once). */
const MAX_WORDS = 200_000;

const byClient = new Map<number, Promise<Vocabulary>>();

/** Forget every client's words (tests that rebuild a store under the same id). */
export function forgetVocabularies() {
  byClient.clear();
}

async function readVocabulary(appId: number, db: Database): Promise<Vocabulary> {
  if (!Number.isSafeInteger(appId)) throw new Error("a client id is a whole number");
  // ts_stat takes its query as text; the client id is a checked integer.
  const rows = rowsOf<{ word: string; ndoc: number }>(await db.execute(sql`
    select word, ndoc from ts_stat(${`select tsv from chunks where app_id = ${appId}`})
    order by ndoc desc limit ${MAX_WORDS}`));
  const byLength = new Map<number, { lexeme: string; passages: number }[]>();
  for (const row of rows) {
    const length = [...row.word].length;
    let list = byLength.get(length);
    if (!list) byLength.set(length, (list = []));
    list.push({ lexeme: row.word, passages: Number(row.ndoc) });
  }
  return { byLength, readAt: Date.now() };
}

/** The client's words, read at most once a while (questions asked together share one read). */
export function vocabularyOf(appId: number, db: Database): Promise<Vocabulary> {
  const kept = byClient.get(appId);
  if (kept) return kept.then((vocabulary) => (Date.now() - vocabulary.readAt > KEEP_MS ? refresh(appId, db) : vocabulary));
  return refresh(appId, db);
}

function refresh(appId: number, db: Database) {
  const reading = readVocabulary(appId, db);
  byClient.set(appId, reading);
  reading.catch(() => byClient.delete(appId));
  return reading;
}

/**
 * Optimal string alignment distance (Levenshtein's insertions, deletions and substitutions, plus a
 * swap of two neighbouring letters as one edit: "gaurentee"/"guarantee" is 2), or `limit + 1` as
 * soon as it must exceed `limit`.
 */
export function editDistance(first: string, second: string, limit: number): number {
  const a = [...first];
  const b = [...second];
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforeLast: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, beforeLast[j - 2] + 1);
      row.push(value);
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > limit) return limit + 1;
    beforeLast = last;
    last = row;
  }
  return last[b.length];
}

/** Edits allowed to reach a stored word: none for short words (too many near neighbours), one from five letters, two from eight. */
export function editsAllowed(lexeme: string) {
  const length = [...lexeme].length;
  return length >= 8 ? 2 : length >= 5 ? 1 : 0;
}

/** Letters only: numbers, codes and words holding digits are never corrected. */
const LETTERS_ONLY = /^\p{L}+$/u;

/**
 * The stored word a question's lexeme found in no passage most likely meant: the fewest edits
 * away, and of those the one in the most passages; none when no stored word is near enough.
 */
export function nearestStoredWord(lexeme: string, vocabulary: Vocabulary): string | null {
  const limit = editsAllowed(lexeme);
  if (!limit || !LETTERS_ONLY.test(lexeme)) return null;
  const length = [...lexeme].length;
  let best: { lexeme: string; passages: number; distance: number } | null = null;
  for (let other = length - limit; other <= length + limit; other++) {
    for (const word of vocabulary.byLength.get(other) ?? []) {
      const distance = editDistance(lexeme, word.lexeme, best ? Math.min(limit, best.distance) : limit);
      if (distance > limit || word.lexeme === lexeme) continue;
      if (!best || distance < best.distance || (distance === best.distance && word.passages > best.passages)) {
        best = { ...word, distance };
      }
    }
  }
  return best?.lexeme ?? null;
}
