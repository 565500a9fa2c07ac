import { SHORTEST_CUT_PIECE } from "../knowledge/index/chunk";
import { isUnspaced, spacedWordsOf, wordBreakPiecesOf, wordCountOf } from "../knowledge/words/lexemes";
import { sentencesOf } from "../knowledge/words/sentences";

/**
 * Sentences of a stored passage, and quotes of them that never cut a word: what an extractive
 * answer is made of. Passages come from web pages and PDFs; a passage may start or end inside a
 * sentence (long sentences are cut between words when chunked), and PDF text often has no sentence
 * punctuation at all, so a quote may be a window of a sentence, marked with "…" where it is cut.
 */

/** What a whole sentence ends with, in either way of writing. */
const ENDS_SENTENCE = /[.!?:؟۔।。！？]["'”’)\]」』）]*$/u;
/** The bullet that opens a list item the splitter made a sentence of its own. */
const BULLET = /^[•▪◦●■]\s*/u;

export interface Sentence {
  text: string;
  /** The sentence began before the passage did (the passage was cut inside it). */
  cutBefore: boolean;
  /** The sentence goes on after the passage ends. */
  cutAfter: boolean;
}

/**
 * A sentence as the pieces a quote is cut between, and what joins them again: its words between
 * spaces, or, in a script written without spaces, the word breaker's pieces.
 */
function quotablePiecesOf(text: string) {
  return isUnspaced(text)
    ? { pieces: wordBreakPiecesOf(text), joiner: "" }
    : { pieces: spacedWordsOf(text), joiner: " " };
}

/**
 * A line that states one fact: a label, then its value ("Length: 4 years", "Tuition | $9,800 per
 * semester", a table's row), in a few words. A box of facts or a table reaches a passage as such
 * lines, one under the other and mostly without full stops, so they would run together into one
 * "sentence" ("Quick facts Credits: 120 Length: 4 years Campus: …") that an answer quotes whole.
 */
const FACT_LABEL = /^([^:|.!?]{1,40})(?::\s|\s\|\s)\S/u;
/** A label names one thing, in a few words ("Application deadline"); a longer opening is a sentence's. */
const FACT_LABEL_WORDS = 4;
const FACT_LINE_WORDS = 16;

/** The label of a fact line ("Length" of "Length: 4 years"), or null when `line` is none. */
export function factLabelOf(line: string): string | null {
  const label = FACT_LABEL.exec(line)?.[1];
  if (label === undefined || wordCountOf(label) > FACT_LABEL_WORDS || wordCountOf(line) > FACT_LINE_WORDS) return null;
  return label;
}
const isFactLine = (line: string) => factLabelOf(line) !== null;

/** Thai and Lao write no full stop: where a line of theirs breaks, its sentence ends. */
const UNPUNCTUATED = /[\p{Script=Thai}\p{Script=Lao}]/u;

/**
 * A passage's text as runs to split into sentences: each fact line alone, the lines between fact
 * lines joined (a heading's line stays with the sentence under it, an address's lines together).
 */
function runsOf(text: string): string[] {
  const runs: string[] = [];
  let open: string[] = [];
  for (const line of text.split("\n")) {
    if (!isFactLine(line.trim())) {
      open.push(line);
      if (UNPUNCTUATED.test(line)) {
        runs.push(open.join(" "));
        open = [];
      }
      continue;
    }
    if (open.length) runs.push(open.join(" "));
    runs.push(line);
    open = [];
  }
  if (open.length) runs.push(open.join(" "));
  return runs;
}

/**
 * The sentences of a passage, in order, each marked when the passage cuts it: the one splitter's
 * sentences of each run (a fact line is one of its own), with single spaces and without the bullets
 * of list items. A PDF's page may end inside a sentence that goes on on the next page (`fromPdf`).
 */
export function passageSentencesOf(text: string, fromPdf = false): Sentence[] {
  const sentences = runsOf(text)
    .flatMap((run) => sentencesOf(run.replace(/\s+/g, " ")))
    .map((s) => s.replace(BULLET, ""))
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
  return sentences.map((sentence, index) => ({
    text: sentence,
    cutBefore: index === 0 && /^[\p{Ll},;:)]/u.test(sentence),
    // A page's passage ends inside a sentence only where chunking cut a long one: a short last
    // line ("Open Monday to Friday, 8:30 am to 5 pm", a fact's line) is whole without a full stop.
    cutAfter:
      index === sentences.length - 1 &&
      !ENDS_SENTENCE.test(sentence) &&
      (fromPdf || sentence.length >= SHORTEST_CUT_PIECE),
  }));
}

/**
 * The sentence as quoted: whole when it is short enough, otherwise `maxWords` words around the
 * heaviest run of its words (`weightOf` scores each word): from a few words before that run,
 * since an answer mostly follows the words that ask for it. Cut between words, and every cut, at
 * either end, is marked with "…".
 */
export function quoteOf(sentence: Sentence, maxWords: number, weightOf: (word: string) => number) {
  const { pieces: words, joiner } = quotablePiecesOf(sentence.text);
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
  let text = words.slice(from, to).join(joiner).trim();
  if (from > 0 || sentence.cutBefore) text = `…${text}`;
  if (to < words.length || sentence.cutAfter) text = `${text.replace(/[,;:]$/, "")}…`;
  return text;
}
