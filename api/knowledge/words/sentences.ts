import { ENGLISH_STOP_WORDS } from "./stop-words";

/**
 * The one splitting of text into sentences, for every stage that reads sentences: the chunker (where
 * a long passage may be cut), the answer composer (what an answer quotes), the program reader of
 * personalisation, and the benches. A text's sentences are slices of it, trimmed: only the
 * whitespace between them is left out.
 *
 * Line breaks count as spaces, since PDF text breaks its lines inside sentences; a caller for whom a
 * line is a unit of its own (a block's line, a fact's line) splits lines first.
 *
 * A pattern rather than the platform's ICU sentence segmenter (Intl.Segmenter): ICU ends a sentence
 * after every "!" or "?" (the quoted "“Are you drunk?” he hissed", "Mother! is a movie"), inside
 * code, after "Dr." and "U.S.", and at every line break; and it is slower (docs/decisions/035).
 */

/** Words after which a full stop does not end a sentence (titles, Latin and business abbreviations, months). */
const ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "sr",
  "jr",
  "st",
  "mt",
  "ft",
  "gen",
  "gov",
  "sen",
  "rep",
  "rev",
  "hon",
  "capt",
  "col",
  "lt",
  "sgt",
  "vs",
  "etc",
  "e.g",
  "i.e",
  "cf",
  "al",
  "approx",
  "ca",
  "inc",
  "ltd",
  "corp",
  "fig",
  "figs",
  "vol",
  "vols",
  "pp",
  "eds",
  "dept",
  "univ",
  "ph.d",
  "u.s",
  "u.k",
  "u.n",
  "a.m",
  "p.m",
  "jan",
  "feb",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
  "tue",
  "thu",
  "fri",
  "cit",
  "ibid",
]);

/**
 * Words that are abbreviations only before a number ("Room No. 5", "Art. 12", "Sec. 4", "Tel. 555"):
 * "no" ends many a sentence ("The answer is no."), but not one whose next begins with a digit.
 */
const BEFORE_A_NUMBER = new Set(["no", "nos", "art", "arts", "sec", "ch", "para", "tel", "ext", "op", "pg"]);

/** Longer than any abbreviation above: how far back from a full stop its word is looked for. */
const ABBREVIATION_REACH = 16;
/** Longer than any function word: how far past a full stop the next word is read. */
const NEXT_WORD_REACH = 16;

/**
 * Whether the full stop at `dotAt` belongs to an abbreviation or an initial rather than ending a
 * sentence; `next`: the word that follows it (its letters or digits, after any opening quote).
 */
function isAbbreviationStop(text: string, dotAt: number, next: string) {
  const reach = text.slice(Math.max(0, dotAt - ABBREVIATION_REACH), dotAt);
  const found = /[\p{L}.]+$/u.exec(reach);
  if (!found) return false;
  // Letters that end a longer token are no abbreviation nor initial: "the 1970s.", "565 °C.",
  // "Shari'a.", "F-35B.", "Gbit/s." end their sentences.
  if (/[\p{N}'’/°]/u.test(reach.charAt(found.index - 1))) return false;
  const word = found[0].toLowerCase();
  // An initial ("Michael B. de Jong", "E. A. Poe") stands before a name or another initial, never
  // before a function word: "vitamin D. Not only …", "in Hall B. The office …" end there.
  if (/^\p{L}$/u.test(word)) return next.length < 2 || !ENGLISH_STOP_WORDS.has(next.toLowerCase());
  if (/^\p{N}/u.test(next) && BEFORE_A_NUMBER.has(word)) return true;
  return ABBREVIATIONS.has(word) || /^(\p{L}\.)+\p{L}$/u.test(word); // "U.S.", "e.g."
}

/**
 * Where sentences end:
 * - . ! ? (Arabic's ؟, Urdu's ۔, the Devanagari danda ।) with any closing quotes or brackets, then
 *   whitespace, then what can start a sentence: a capital, a digit, or a letter of a script without
 *   capitals (Korean, Arabic, Hebrew, Hindi), maybe after an opening quote or bracket, Spanish ¿ ¡,
 *   a currency sign or a hash. A full stop before a lower-case word ("e.g. a passport") ends nothing,
 *   nor one without a space after it ("3.5", "Example.Group.id", "www.example.edu"), nor an
 *   abbreviation's ("Dr. Shadlen", "the U.S. Army");
 * - Chinese and Japanese 。！？ with any closers, which need no space after them;
 * - before a bullet (• ▪ ◦ ● ■ between spaces), which PDFs and flattened lists leave between items.
 * The punctuation leads each branch so that the search skips to it rather than trying a
 * look-behind at every character.
 */
const SENTENCE_END =
  /([.!?؟۔।]["'”’»)\]]*)\s+(?=["'“‘„«([¿¡#\p{Sc}]?[\p{Lu}\p{Lo}\p{N}])|([。！？][」』）”’"')\]]*)\s*|\s+(?=[•▪◦●■]\s)/gu;

/** The sentences of `text`, in order, each trimmed. */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  const keep = (from: number, to: number) => {
    const sentence = text.slice(from, to).trim();
    if (sentence) sentences.push(sentence);
  };
  let start = 0;
  for (const end of text.matchAll(SENTENCE_END)) {
    const terminal = end[1] ?? end[2] ?? "";
    const after = end.index + end[0].length;
    const next = /^["'“‘„«([¿¡]?([\p{L}\p{N}]*)/u.exec(text.slice(after, after + NEXT_WORD_REACH))?.[1] ?? "";
    if (terminal.startsWith(".") && isAbbreviationStop(text, end.index, next)) continue;
    keep(start, end.index + terminal.length);
    start = end.index + end[0].length;
  }
  keep(start, text.length);
  return sentences;
}
