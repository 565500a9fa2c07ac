import { sql, type SQL } from "drizzle-orm";
import { createRequire } from "node:module";
import snowball from "snowball-stemmers";
import { ENGLISH_STOP_WORDS } from "./stop-words";

/**
 * Words as the full-text index keeps them, made in our own code rather than by Postgres'
 * `to_tsvector('english', …)`: lower case, English stop words dropped, English words reduced to
 * their Snowball stems, numbers and words holding digits kept as written. Passages are turned into
 * tsvectors on the extraction threads and questions into lexemes here, with the same function, so
 * the two always agree, and the database only stores and indexes what it is given (the text
 * search parser was the biggest single cost of writing a page: docs/decisions/017).
 *
 * The Snowball stemmer is the one the `english_stem` dictionary of PostgreSQL 18 and before runs and
 * the stop words are its `english.stop` list, so a passage stored by such a Postgres itself (before
 * this change, or by the fallback trigger of migration 0013) has the same lexemes for every ordinary
 * word. PostgreSQL 19's is a newer Snowball that stems 0.3 % of words otherwise, so the trigger also
 * marks such a passage for the scheduled recovery to make again here (migration 0055). One thing is
 * added: an irregular verb's past forms count as the verb ("grew" as "grow", "written" as "write"),
 * which a stemmer cannot know and questions ask across ("Who wrote …?" of a page saying
 * "written by …"). The forms come from WordNet's list (`english-verbs-irregular`).
 *
 * Chinese, Japanese, Thai, Lao, Khmer and Burmese put no spaces between words: a run of their
 * letters is cut into words by the platform's ICU word breaker (`Intl.Segmenter`, with its
 * dictionaries for these scripts, as Lucene's ICUTokenizer does), and their function words are
 * stop words too (docs/decisions/026).
 *
 * A word in Cyrillic letters is stemmed by Snowball's Russian stemmer and one in Arabic letters by
 * its Arabic stemmer (the ones Postgres' `russian_stem` and `arabic_stem` run), each with its
 * language's stop words: the script tells the language apart where English stems would leave the
 * word as it is. Korean writes a noun with its particle ("등록금은", tuition + topic marker) and a
 * verb with its ending: a word in Hangul loses its ending and keeps its first two syllables
 * (docs/decisions/027).
 */

/**
 * Function words of the scripts written without spaces, from the `stopword` package's lists
 * (Japanese: Lucene's Kuromoji list; Chinese: natural's; Thai: stopwords-iso's), and the question
 * words those lists lack. Question words are stop words in English too ("what", "where", "how"):
 * the page that answers "学费是多少？" says what tuition is, never "多少" ("how much").
 */
const UNSPACED_STOP_WORDS: ReadonlySet<string> = (() => {
  const lists = createRequire(import.meta.url)("stopword") as Record<string, string[]>;
  const questionWords = [
    "多少",
    "什么",
    "哪里",
    "哪儿",
    "哪个",
    "几点",
    "怎么",
    "怎样",
    "为什么",
    "如何",
    "吗", // Chinese
    "何",
    "誰", // Japanese (those in hiragana are all left out, below)
    "เท่า",
    "ไหร่",
    "ไร",
    "ไหน",
    "กี่",
    "ไหม",
    "ทำไม",
    "อย่างไร",
    "ยังไง",
    "อะไร", // Thai, as ICU cuts them ("เท่า|ไหร่", "ที่|ไหน")
  ];
  return new Set([...lists.zho, ...lists.jpn, ...lists.tha, ...questionWords]);
})();

/**
 * Function words of the languages written in Cyrillic and Arabic letters, from the `stopword`
 * package's lists (Russian and Ukrainian: Snowball's and stopwords-iso's; Arabic and Persian), and
 * the question words those lists lack ("сколько", how much; "لماذا", why), as in English.
 */
const CYRILLIC_STOP_WORDS: ReadonlySet<string> = (() => {
  const lists = createRequire(import.meta.url)("stopword") as Record<string, string[]>;
  const questionWords = ["сколько", "почему", "зачем", "какова", "каков", "каково", "каковы", "скільки", "чому"];
  return new Set([...lists.rus, ...lists.ukr, ...questionWords].map(withoutYo));
})();
const ARABIC_STOP_WORDS: ReadonlySet<string> = (() => {
  const lists = createRequire(import.meta.url)("stopword") as Record<string, string[]>;
  return new Set([...lists.ara, ...lists.fas, "لماذا", "اين"].map(withoutArabicMarks));
})();

/**
 * The endings a Korean word may carry, longest first (closed classes of its grammar): a noun's
 * particles (case markers, "and", "also", "from", "until"…), the copula's endings ("입니다", is),
 * and the common endings of a verb ("열어요", "열고" of "열다", to open). A question's word seldom
 * carries the page's ending ("등록금이" asks of "등록금은"); the stem is what they share.
 */
const KOREAN_ENDINGS = [
  "에서부터",
  "으로부터",
  "었습니다",
  "았습니다",
  "였습니다",
  "에게서",
  "한테서",
  "로부터",
  "이라도",
  "에서는",
  "에서도",
  "에게는",
  "으로는",
  "까지는",
  "입니다",
  "입니까",
  "습니다",
  "습니까",
  "이에요",
  "인가요",
  "이예요",
  "으세요",
  "까지",
  "부터",
  "에서",
  "에게",
  "한테",
  "께서",
  "으로",
  "처럼",
  "보다",
  "마다",
  "조차",
  "밖에",
  "이나",
  "이랑",
  "하고",
  "에는",
  "에도",
  "와는",
  "과는",
  "예요",
  "에요",
  "이다",
  "인가",
  "이며",
  "이고",
  "니다",
  "니까",
  "세요",
  "나요",
  "는데",
  "지만",
  "어요",
  "아요",
  "어서",
  "아서",
  "으면",
  "으며",
  "었다",
  "았다",
  "는다",
  "은",
  "는",
  "이",
  "가",
  "을",
  "를",
  "의",
  "에",
  "로",
  "와",
  "과",
  "도",
  "만",
  "고",
  "며",
  "면",
];
/**
 * Korean question words, and the verbs that carry no subject of their own ("있다", to be; "하다",
 * to do; "되다", to become; "수", can; "알려 주세요", please tell), by their stems as kept below,
 * or by their first syllable where every word that starts with it is one of them ("있어요",
 * "없습니다", "몇 시", "되나요").
 */
const KOREAN_STOP_STEMS: ReadonlySet<string> = new Set([
  "얼마",
  "언제",
  "어디",
  "누구",
  "누가",
  "무엇",
  "무슨",
  "어떻",
  "어떤",
  "어느",
  "며칠",
  "뭐",
  "왜",
  "이",
  "그",
  "저",
  "것",
  "수",
  "등",
  "및",
  "또",
  "더",
  "하",
  "해",
  "한",
  "할",
  "합",
  "했",
  "하는",
  "해주",
  "알려",
  "주",
  "대해",
  "관해",
  "궁금",
  "싶어",
  "싶습",
]);
const KOREAN_STOP_SYLLABLES: ReadonlySet<string> = new Set(["있", "없", "몇", "됩", "돼", "되", "된", "될"]);
/** A Korean word's stem keeps this many syllables: most nouns are two (Sino-Korean), and a verb's ending follows them. */
const KOREAN_STEM_SYLLABLES = 2;

/** A word in Hangul as the index keeps it: without its ending, cut to its first syllables; "" for a stop word. */
function koreanStemOf(word: string): string {
  // "누가" (who) is a word of its own, not "누" with a particle.
  if (KOREAN_STOP_STEMS.has(word)) return "";
  const ending = KOREAN_ENDINGS.find((candidate) => word.length > candidate.length && word.endsWith(candidate));
  const stem = (ending ? word.slice(0, -ending.length) : word).slice(0, KOREAN_STEM_SYLLABLES);
  return KOREAN_STOP_STEMS.has(stem) || KOREAN_STOP_SYLLABLES.has(stem[0]) ? "" : stem;
}

/**
 * A Japanese word written in hiragana alone: a particle, an auxiliary verb or an inflection's
 * ending ("は", "です", "ありますか"), which is how Japanese writes its grammar; its content words
 * are written in kanji or katakana. They are left out as Lucene's Japanese analyzer leaves out
 * those parts of speech. ICU cuts such endings differently in a question and in the page that
 * answers it ("あり|ます" and "ありま|すか"), so kept they would weigh against the answer.
 */
const HIRAGANA_ONLY = /^\p{Script=Hiragana}+$/u;

/** Letters (with their combining marks) and digits: what a word is made of. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const DIGIT = /\p{N}/u;
/** Longer runs are not words (hashes, encoded data): they would only bloat the index. */
const MAX_WORD_CHARS = 100;
/** Postgres keeps at most 256 positions of a lexeme, each at most 16383. */
const MAX_POSITIONS = 256;
const MAX_POSITION = 16383;

const english = snowball.newStemmer("english");
const russian = snowball.newStemmer("russian");
const arabic = snowball.newStemmer("arabic");

const CYRILLIC = /\p{Script=Cyrillic}/u;
const HANGUL_ONLY = /^\p{Script=Hangul}+$/u;
const ARABIC = /\p{Script=Arabic}/u;
/**
 * Russian writes "ё" as "е" more often than not ("прием" for "приём"), and the stemmer stops at a
 * letter it does not know: the two forms are one word.
 */
function withoutYo(word: string) {
  return word.replace(/ё/g, "е");
}
/** Arabic's vowel signs and its stretching stroke: a page may write them, a question seldom does. */
function withoutArabicMarks(word: string) {
  return word.replace(/[\p{M}\u0640]/gu, "");
}

/** "grew" ⇒ "grow", "written" ⇒ "write": each irregular past form and participle to its verb. */
const IRREGULAR_FORMS: Map<string, string> = (() => {
  const verbs = createRequire(import.meta.url)("english-verbs-irregular/dist/verbs.json") as Record<string, string[][]>;
  const forms = new Map<string, string>();
  for (const [verb, conjugations] of Object.entries(verbs)) {
    for (const form of conjugations.flat()) if (form !== verb && !forms.has(form)) forms.set(form, verb);
  }
  return forms;
})();

/** Each thread keeps the stems it has met (see entryOf): the same words come back on every page. */
const MAX_KNOWN = 200_000;

/** Latin letters that may carry accents (Latin-1 Supplement, Extended-A/B, Extended Additional). */
const ACCENTED_LATIN = /[\u00c0-\u024f\u1e00-\u1eff]/;
const LATIN_MARKS = /(\p{Script=Latin})\p{M}+/gu;

/**
 * Accents off Latin letters ("fiancée" ⇒ "fiancee", "Zürich" ⇒ "zurich"), so a question typed
 * without them meets the page that has them. Other scripts keep their marks, which are part of
 * their letters (Devanagari's vowel signs, Arabic's vowels).
 */
function withoutLatinAccents(text: string) {
  return ACCENTED_LATIN.test(text) ? text.normalize("NFD").replace(LATIN_MARKS, "$1").normalize("NFC") : text;
}

/** Letters of the scripts written without spaces between words (Han, kana, Thai, Lao, Khmer, Burmese). */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Whether a text holds letters of a script written without spaces between words. */
export const isUnspaced = (text: string) => UNSPACED.test(text);
/** ICU's word breaker: its dictionaries cover all of these scripts whatever the locale. */
const wordBreaker = new Intl.Segmenter(undefined, { granularity: "word" });

/**
 * A text in the pieces ICU's word breaker cuts it into, words and what stands between them, as
 * written: joined, they are the text again.
 */
export function wordBreakPiecesOf(text: string): string[] {
  return Array.from(wordBreaker.segment(text), ({ segment }) => segment);
}

/**
 * Korean writes a number and its counter or particle as one ("9월", September; "10일에", on the
 * 10th): the two are cut apart, so that the number is a word as a question may ask it.
 */
const HANGUL = /\p{Script=Hangul}/u;
const HANGUL_OR_NOT = /\p{Script=Hangul}+|[^\p{Script=Hangul}]+/gu;
/** Letters of a script whose runs are cut further: written without spaces, or Hangul. */
const CUT_FURTHER =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Hangul}]/u;

/** A run of letters of an unspaced script, as its words. */
function unspacedWordsOf(run: string): string[] {
  const words: string[] = [];
  for (const { segment, isWordLike } of wordBreaker.segment(run)) if (isWordLike) words.push(segment);
  return words;
}

/**
 * How many words a text holds: between spaces, and in a script written without them (Chinese,
 * Japanese, Thai) as the word breaker cuts them. What page rules and answers count lengths in.
 */
export function wordCountOf(text: string): number {
  return UNSPACED.test(text) ? wordsOf(text).length : spacedWordsOf(text).length;
}

/** A text's runs between spaces, as written. */
export const spacedWordsOf = (text: string) => text.split(/\s+/).filter(Boolean);

/** The words of a text, lower case and without Latin accents, in order (stop words included: they hold positions). */
export function wordsOf(text: string): string[] {
  const runs = withoutLatinAccents(text.toLowerCase()).match(WORD) ?? [];
  // The test costs one scan, far less than the segmenter would on a text that needs none.
  if (!CUT_FURTHER.test(text)) return runs;
  return runs.flatMap((run) => {
    if (UNSPACED.test(run)) return unspacedWordsOf(run);
    return HANGUL.test(run) && DIGIT.test(run) ? run.match(HANGUL_OR_NOT)! : [run];
  });
}

/** The verb an irregular past form or participle belongs to ("grew" ⇒ "grow"), if it is one. */
export const verbOfIrregularForm = (word: string) => IRREGULAR_FORMS.get(word);

/** A lower-case word's lexeme, worked out afresh: "" for a stop word or a run too long to be a word. */
function stemOf(word: string): string {
  if (word.length > MAX_WORD_CHARS) return "";
  if (HANGUL_ONLY.test(word)) return koreanStemOf(word);
  if (CYRILLIC.test(word)) return stemmedIn(withoutYo(word), CYRILLIC_STOP_WORDS, russian);
  if (ARABIC.test(word)) return stemmedIn(withoutArabicMarks(word), ARABIC_STOP_WORDS, arabic);
  const verb = IRREGULAR_FORMS.get(word);
  if (
    ENGLISH_STOP_WORDS.has(word) ||
    (verb && ENGLISH_STOP_WORDS.has(verb)) ||
    UNSPACED_STOP_WORDS.has(word) ||
    HIRAGANA_ONLY.test(word)
  )
    return "";
  return DIGIT.test(word) ? word : english.stem(verb ?? word);
}

/** A word of a language with its own stop words and stemmer: "" for a stop word, kept as written when it holds a digit. */
function stemmedIn(word: string, stopWords: ReadonlySet<string>, stemmer: { stem: (word: string) => string }) {
  if (!word || stopWords.has(word)) return "";
  return DIGIT.test(word) ? word : stemmer.stem(word);
}

/** A lower-case word's lexeme: "" for a stop word or a run too long to be a word. */
export function lexemeOf(word: string): string {
  forgetWhenFull();
  return entryOf(word).lexeme;
}

/** The distinct lexemes of some words, sorted as a tsvector sorts them. */
export function lexemesOf(words: string[]): string[] {
  return [...new Set(words.map(lexemeOf).filter(Boolean))].sort();
}

const NEEDS_ESCAPE = /['\\]/;
const quoted = (lexeme: string) =>
  NEEDS_ESCAPE.test(lexeme) ? `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'` : `'${lexeme}'`;

/**
 * A lexeme, as tsvectorOf writes it too, with where it stands in the tsvector being written: one
 * object per distinct lexeme, shared by all the words that stem to it, so a word costs one lookup
 * and no per-chunk table is needed (the per-chunk table of positions was a quarter of a page's
 * extraction: docs/decisions/017).
 */
interface LexemeEntry {
  /** "" for a stop word. */
  readonly lexeme: string;
  /** The lexeme quoted as a tsvector literal holds it. */
  readonly written: string;
  /** The tsvector being written when this lexeme last appeared in one, and its place in it. */
  vector: number;
  slot: number;
}

const STOP: LexemeEntry = { lexeme: "", written: "", vector: 0, slot: 0 };
const wordEntries = new Map<string, LexemeEntry>();
const lexemeEntries = new Map<string, LexemeEntry>();
let vectorsWritten = 0;

/**
 * Empties the tables when they are full. Only between two tsvectors: emptied in the middle of one,
 * a lexeme already written would get a second entry and be written twice. Both go together, so a
 * word never meets a second entry for a lexeme another word holds.
 */
function forgetWhenFull() {
  if (wordEntries.size < MAX_KNOWN) return;
  wordEntries.clear();
  lexemeEntries.clear();
}

/** A lower-case word's lexeme entry, kept per thread. */
function entryOf(word: string): LexemeEntry {
  let entry = wordEntries.get(word);
  if (entry === undefined) {
    const lexeme = stemOf(word);
    entry = lexeme ? lexemeEntries.get(lexeme) : STOP;
    if (entry === undefined) {
      entry = { lexeme, written: quoted(lexeme), vector: 0, slot: 0 };
      lexemeEntries.set(lexeme, entry);
    }
    wordEntries.set(word, entry);
  }
  return entry;
}

/**
 * The weight letter of the positions of a passage's fields (its page's title and its headings):
 * body words carry none (Postgres' D). Retrieval counts the two apart (BM25F), so a question in the
 * words of a heading finds the passage under it without the heading being repeated in its text.
 */
export const FIELD_WEIGHT = "B";

/**
 * A text's tsvector, written as Postgres reads one (`'lexeme':1,4 'other':2`), positions from 1.
 * The words of `fields` (title, headings) follow the text's, at positions marked FIELD_WEIGHT.
 */
export function tsvectorOf(text: string, fields: readonly string[] = []): string {
  forgetWhenFull();
  const vector = ++vectorsWritten;
  const parts: string[] = []; // per lexeme, in order of first appearance: `'lexeme':1,4`
  const counts: number[] = [];
  // A chunk is far shorter than the positions Postgres can hold; words past them are left out.
  const words = wordsOf(text);
  const bodyEnd = Math.min(words.length, MAX_POSITION);
  if (fields.length) words.length = bodyEnd;
  for (const field of fields) for (const word of wordsOf(field)) words.push(word);
  const end = Math.min(words.length, MAX_POSITION);
  for (let index = 0; index < end; index++) {
    const entry = entryOf(words[index]);
    if (entry === STOP) continue;
    const position = index < bodyEnd ? `${index + 1}` : `${index + 1}${FIELD_WEIGHT}`;
    if (entry.vector !== vector) {
      entry.vector = vector;
      entry.slot = parts.length;
      parts.push(`${entry.written}:${position}`);
      counts.push(1);
    } else if (counts[entry.slot] < MAX_POSITIONS) {
      parts[entry.slot] += `,${position}`;
      counts[entry.slot]++;
    }
  }
  return parts.join(" ");
}

/** A tsquery matching passages that hold every one of the lexemes (with `weight`: in those positions only). */
export function everyLexemeQuery(lexemes: string[], weight = ""): string {
  return lexemes.map((lexeme) => `${quoted(lexeme)}${weight ? `:${weight}` : ""}`).join(" & ");
}

/** A tsquery matching passages that hold the lexemes one after the other, as a phrase. */
export function phraseQuery(lexemes: string[]): string {
  return lexemes.map(quoted).join(" <-> ");
}

/** A tsquery matching passages that hold any one of the lexemes. */
export function anyLexemeQuery(lexemes: string[]): string {
  return lexemes.map(quoted).join(" | ");
}

/**
 * A passage's title and heading words alone (its positions of the field weight), in SQL: the
 * expression the index chunks_fields_idx is built on, written out rather than bound so that the
 * planner sees it is. Retrieval finds the passages whose fields hold every key word in that index
 * instead of re-reading every passage that holds them anywhere.
 */
export const fieldsOf = (tsv: SQL) => sql`ts_filter(${tsv}, ${sql.raw(`'{${FIELD_WEIGHT.toLowerCase()}}'`)}::"char"[])`;
