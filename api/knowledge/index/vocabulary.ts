import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { isUnspaced } from "../words/lexemes";

/**
 * The words of a client's knowledge store, so that a key word of a question found in no passage
 * ("gaurentee", "ARPNET" of a page saying "ARPANET") can be read as the stored word it nearly is.
 *
 * Read from the passages' tsvectors by Postgres' own `ts_stat` when a question first needs it, and
 * kept a while per client: a word that has since left the store is harmless (retrieval counts the
 * passages holding a correction before using it), and one that arrived since is only missed until
 * the list is read again.
 */
export interface Vocabulary {
  /** Stored words by length (in letters). */
  byLength: Map<number, StoredWords>;
}

/**
 * The passages holding `lexeme` when the words were read (undefined for a word the read did not
 * find): a binary search of the stored words of its length, which are in code-unit order.
 */
export function passagesHolding(vocabulary: Vocabulary, lexeme: string): number | undefined {
  const words = vocabulary.byLength.get([...lexeme].length);
  if (!words) return undefined;
  let low = 0;
  let high = words.lexemes.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const stored = words.lexemes[middle];
    if (stored === lexeme) return words.passages[middle];
    if (stored < lexeme) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/**
 * Stored words of one length, side by side: each lexeme, the number of passages holding it when
 * read, and its letters (lettersOf). Typed arrays, so the scan of a bucket's letters runs at a few
 * nanoseconds a word.
 */
export interface StoredWords {
  lexemes: string[];
  passages: Int32Array;
  letters: Int32Array;
}

/** Stored words of one length, from their lexemes and passage counts, put in code-unit order (passagesHolding searches them). */
export function storedWords(unordered: { lexeme: string; passages: number }[]): StoredWords {
  const words = [...unordered].sort((a, b) => (a.lexeme < b.lexeme ? -1 : a.lexeme > b.lexeme ? 1 : 0));
  return {
    lexemes: words.map((word) => word.lexeme),
    passages: Int32Array.from(words, (word) => word.passages),
    letters: Int32Array.from(words, (word) => lettersOf(word.lexeme)),
  };
}

const KEEP_MS = 10 * 60_000;
/** A read whose counts a change of the store made stale is done again after this long at the soonest. */
const READ_AGAIN_MS = 60_000;
/**
 * Passages whose words are read at most: the read costs about 5 µs a passage, so a store of a
 * million passages would hold the database for seconds. A word misspelt by a visitor is rarely
 * one that only the passages left unread hold.
 */
export const MAX_PASSAGES_READ = 100_000;
/** A store with more distinct words than this keeps its commonest (a typo is corrected to a word seen more than once). */
const MAX_WORDS = 200_000;

/** Clients whose words are kept at once (about ten megabytes each at most, for 200,000 words). */
const MAX_CLIENTS = 32;

/**
 * Each client's words, as read or being read, and when the read began; `read` once it has ended;
 * `stale` once the client's passages changed after the read began (its counts may be behind).
 */
interface KeptRead {
  reading: Promise<Vocabulary>;
  startedAt: number;
  read?: Vocabulary;
  stale?: boolean;
}
const byClient = new Map<number, KeptRead>();

/** Forget every client's words (a benchmark that builds a store again under the same client id). */
export function forgetVocabularies() {
  byClient.clear();
}

async function readVocabulary(appId: number, db: Database): Promise<Vocabulary> {
  if (!Number.isSafeInteger(appId)) throw new Error("a client id is a whole number");
  // ts_stat takes its query as text; the client id is a checked integer.
  const rows = rowsOf<{ word: string; ndoc: number }>(
    await db.execute(sql`
    select word, ndoc from ts_stat(${`select tsv from chunks where app_id = ${appId} limit ${MAX_PASSAGES_READ}`})
    order by ndoc desc limit ${MAX_WORDS}`),
  );
  const lists = new Map<number, { lexeme: string; passages: number }[]>();
  for (const row of rows) {
    const length = [...row.word].length;
    let list = lists.get(length);
    if (!list) lists.set(length, (list = []));
    list.push({ lexeme: row.word, passages: Number(row.ndoc) });
  }
  return { byLength: new Map([...lists].map(([length, list]) => [length, storedWords(list)])) };
}

/**
 * The client's words, read at most once a while: questions asked together, or after the words
 * expired, share one read (the expiry is decided before anything is awaited).
 */
export function vocabularyOf(appId: number, db: Database): Promise<Vocabulary> {
  const kept = byClient.get(appId);
  if (kept && Date.now() - kept.startedAt <= KEEP_MS) return kept.reading;
  return startReading(appId, db).reading;
}

function startReading(appId: number, db: Database): KeptRead {
  const reading = readVocabulary(appId, db);
  // Kept in the order read: the client read longest ago is forgotten first.
  byClient.delete(appId);
  if (byClient.size >= MAX_CLIENTS) byClient.delete(byClient.keys().next().value!);
  const entry: KeptRead = { reading, startedAt: Date.now() };
  byClient.set(appId, entry);
  reading.then(
    (read) => (entry.read = read),
    () => byClient.get(appId) === entry && byClient.delete(appId),
  );
  return entry;
}

/**
 * The client's words with passage counts that are current, if a read of them has ended; otherwise
 * null, and a read is begun (unless one is under way, or began less than READ_AGAIN_MS ago) for
 * the questions that follow. Never waits: the first question after a while is counted word by word.
 */
export function currentVocabulary(appId: number, db: Database): Vocabulary | null {
  const kept = byClient.get(appId);
  const age = kept ? Date.now() - kept.startedAt : Infinity;
  if (kept?.read && !kept.stale && age <= KEEP_MS) return kept.read;
  const underWay = kept && !kept.read && age <= KEEP_MS;
  if (!underWay && age >= READ_AGAIN_MS) startReading(appId, db).reading.catch(() => {});
  return null;
}

/** The client's passages changed: the counts of its words read so far may be behind. */
export function markVocabularyStale(appId: number) {
  const kept = byClient.get(appId);
  if (kept) kept.stale = true;
}

/** A word as a list of its letters' codes (whole code points, so a letter outside the BMP is one). */
const codesOf = (word: string) => Array.from(word, (letter) => letter.codePointAt(0)!);

/**
 * Optimal string alignment distance (Levenshtein's insertions, deletions and substitutions, plus a
 * swap of two neighbouring letters as one edit: "gaurentee"/"guarantee" is 2), or `limit + 1` as
 * soon as it must exceed `limit`.
 */
export function editDistance(first: string, second: string, limit: number): number {
  const a = codesOf(first);
  const b = codesOf(second);
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // Three rows of the table, reused: the one before last (for swaps), the last, and the one being filled.
  let beforeLast = new Int32Array(b.length + 1);
  let last = Int32Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, beforeLast[j - 2] + 1);
      row[j] = value;
      if (value < rowBest) rowBest = value;
    }
    if (rowBest > limit) return limit + 1;
    [beforeLast, last, row] = [last, row, beforeLast];
  }
  return last[b.length];
}

/**
 * The letters a word holds, one bit each (a–z; every other letter shares one bit). An edit changes
 * which letters a word holds by two at most, so two words whose sets differ by more than twice the
 * edits allowed need no table: this rules out nearly every stored word at the cost of a few
 * instructions.
 */
export function lettersOf(word: string) {
  let mask = 0;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i) - 97;
    mask |= code >= 0 && code < 26 ? 1 << code : 1 << 26;
  }
  return mask;
}

/** The number of bits set in a 32-bit mask (the usual SWAR count). */
function bitsSet(mask: number) {
  let v = mask - ((mask >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
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
  // A word of a script written without spaces was cut out by a dictionary: missing, it is no typo.
  if (!limit || !LETTERS_ONLY.test(lexeme) || isUnspaced(lexeme)) return null;
  const length = [...lexeme].length;
  const letters = lettersOf(lexeme);
  let best: { lexeme: string; passages: number; distance: number } | null = null;
  for (let other = length - limit; other <= length + limit; other++) {
    const words = vocabulary.byLength.get(other);
    if (!words) continue;
    for (let index = 0; index < words.letters.length; index++) {
      if (bitsSet(letters ^ words.letters[index]) > 2 * limit) continue;
      const stored = words.lexemes[index];
      const distance = editDistance(lexeme, stored, best ? Math.min(limit, best.distance) : limit);
      if (distance > limit || stored === lexeme) continue;
      if (!best || distance < best.distance || (distance === best.distance && words.passages[index] > best.passages)) {
        best = { lexeme: stored, passages: words.passages[index], distance };
      }
    }
  }
  return best?.lexeme ?? null;
}
