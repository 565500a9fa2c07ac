/**
 * Sentences of a stored passage, and quotes of them that never cut a word: what an extractive
 * answer is made of. Passages come from web pages and PDFs; a passage may start or end inside a
 * sentence (long sentences are cut between words when chunked), and PDF text often has no sentence
 * punctuation at all, so a quote may be a window of a sentence, marked with "…" where it is cut.
 */

/** Words after which a full stop does not end a sentence (titles, Latin and business abbreviations, months). */
const ABBREVIATIONS = new Set([
  "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "gen", "gov", "sen", "rep", "rev", "hon", "capt", "col", "lt", "sgt",
  "vs", "etc", "e.g", "i.e", "cf", "al", "approx", "ca", "inc", "ltd", "corp", "fig", "figs", "vol", "vols", "pp",
  "eds", "dept", "univ", "ph.d", "u.s", "u.k", "u.n", "a.m", "p.m", "jan", "feb", "apr", "jun", "jul", "aug", "sep", "sept",
  "oct", "nov", "dec", "tue", "thu", "fri", "cit", "ibid",
]);

/** A sentence end: . ! ? (and closing quotes or brackets), then space, then what can start a sentence. */
const END = /([.!?]["'”’)\]]*)\s+(?=["'“‘([]?[\p{Lu}\p{N}])/gu;
/** Bullets and list markers that PDFs and flattened lists leave between items. */
const BULLET = /\s+[•▪◦●■]\s+/g;

export interface Sentence {
  text: string;
  /** The sentence began before the passage did (the passage was cut inside it). */
  cutBefore: boolean;
  /** The sentence goes on after the passage ends. */
  cutAfter: boolean;
}

/** Whether the full stop ending `before` belongs to an abbreviation or an initial rather than ending a sentence. */
function abbreviationEnds(before: string) {
  const word = /([\p{L}.]+)\.$/u.exec(before)?.[1]?.toLowerCase();
  if (!word) return false;
  if (/^\p{L}$/u.test(word)) return true; // an initial: "Michael B. de Jong"
  return ABBREVIATIONS.has(word) || /^(\p{L}\.)+\p{L}$/u.test(word); // "U.S.", "e.g."
}

/** The sentences of a passage, in order, each marked when the passage cuts it. */
export function sentencesOf(text: string): Sentence[] {
  const flat = text.replace(BULLET, " • ").replace(/\s+/g, " ").trim();
  if (!flat) return [];
  const pieces: string[] = [];
  let start = 0;
  for (const match of flat.matchAll(END)) {
    const endOfSentence = match.index + match[1].length;
    if (match[1].startsWith(".") && abbreviationEnds(flat.slice(start, endOfSentence))) continue;
    pieces.push(flat.slice(start, endOfSentence));
    start = match.index + match[0].length;
  }
  pieces.push(flat.slice(start));
  // Bullet items are sentences of their own.
  const sentences = pieces.flatMap((piece) => piece.split(" • ")).map((s) => s.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s));
  return sentences.map((sentence, index) => ({
    text: sentence,
    cutBefore: index === 0 && /^[\p{Ll},;:)]/u.test(sentence),
    cutAfter: index === sentences.length - 1 && !/[.!?:]["'”’)\]]*$/u.test(sentence),
  }));
}

export const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * The sentence as quoted: whole when it is short enough, otherwise `maxWords` words around the
 * heaviest run of its words (`weightOf` scores each word): from a few words before that run,
 * since an answer mostly follows the words that ask for it. Cut between words, and every cut, at
 * either end, is marked with "…".
 */
export function quoteOf(sentence: Sentence, maxWords: number, weightOf: (word: string) => number) {
  const words = wordsOf(sentence.text);
  let from = 0;
  let to = words.length;
  if (words.length > maxWords) {
    const weights = words.map(weightOf);
    const run = Math.max(4, Math.floor(maxWords / 3));
    let best = -1;
    let anchor = 0;
    for (let start = 0; start + run <= words.length; start++) {
      const weight = weights.slice(start, start + run).reduce((sum, w) => sum + w, 0);
      if (weight > best) {
        best = weight;
        anchor = start;
      }
    }
    from = Math.max(0, Math.min(anchor - 3, words.length - maxWords));
    to = from + maxWords;
  }
  let text = words.slice(from, to).join(" ");
  if (from > 0 || sentence.cutBefore) text = `…${text}`;
  if (to < words.length || sentence.cutAfter) text = `${text.replace(/[,;:]$/, "")}…`;
  return text;
}
