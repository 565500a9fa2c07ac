import type { Block } from "../html-blocks";
import { wordCountOf } from "../../words/lexemes";
import { HEADLINE_WORDS, HOLDS_DATA, SENTENCE_END } from "../rules";

/**
 * What an article's container still holds after its last paragraph: "Mehr zum Thema", "Continue
 * reading the main story", "See what it can do for you", a byline, an ad label, a heading over
 * links that were cut. Readability keeps these lines, as they sit inside the article's element; they are
 * labels and link texts, not text a visitor's question is answered from. Measured on trafilatura's
 * evaluation pages (decision 022).
 */

/** A paragraph at least this long is article text: what comes after the last one is looked at. */
const ARTICLE_PARAGRAPH = 100;
/** A line after it shorter than this, and not a sentence, is furniture. */
const LABEL_CHARS = 60;

/**
 * A short line after the article's text that is not a sentence, a list entry or data. A block of
 * several lines (an address, a verse, lines set apart with <br>) is set out on purpose: it stays.
 */
const isTrailingLabel = (block: Block) =>
  block.kind === "text" &&
  !block.item &&
  block.text.length < LABEL_CHARS &&
  !block.text.includes("\n") &&
  !SENTENCE_END.test(block.text) &&
  !HOLDS_DATA.test(block.text);

/** Names in a row, at least, that make a directory rather than a pair of teasers. */
const DIRECTORY_NAMES = 5;
/** A heading short enough to be a name ("Nursing (BA)"), not a headline. */
const isName = (block: Block | undefined) =>
  !!block && block.kind === "heading" && wordCountOf(block.text) < HEADLINE_WORDS;

/**
 * The headings of `tail` that stand in runs of short ones with nothing under them: a directory's
 * entries (a program index of linked cards, "Nursing (BA)", "Biology (BS)", …), whose names are the
 * page's text. A teaser's headline is longer, and a pair of them is no directory. One pass, however
 * long the run.
 */
function directoryNames(tail: Block[]) {
  const names = new Set<Block>();
  for (let from = 0; from < tail.length; from++) {
    if (!isName(tail[from])) continue;
    let to = from;
    while (isName(tail[to + 1])) to++;
    if (to - from + 1 >= DIRECTORY_NAMES) for (let at = from; at <= to; at++) names.add(tail[at]);
    from = to;
  }
  return names;
}

/**
 * The blocks without the labels after the article's last paragraph, and without the headings there
 * that are left with nothing under them (unless they are a directory's names, directoryNames). List items and table rows stay (a checklist, a table of
 * results), as do sentences and lines holding figures or an address.
 */
export function withoutTrailingFurniture(blocks: Block[]): Block[] {
  let lastParagraph = -1;
  blocks.forEach((block, index) => {
    if (block.kind === "text" && block.text.length >= ARTICLE_PARAGRAPH) lastParagraph = index;
  });
  if (lastParagraph === -1) return blocks;
  const tail = blocks.slice(lastParagraph + 1).filter((block) => !isTrailingLabel(block));
  // A heading stays when text it heads is kept: before the next heading of its level or above.
  const names = directoryNames(tail);
  const keptTail = tail.filter((block, index) => {
    if (block.kind !== "heading") return true;
    if (names.has(block)) return true;
    for (const next of tail.slice(index + 1)) {
      if (next.kind === "text") return true;
      if ((next.level ?? 6) <= (block.level ?? 6)) return false;
    }
    return false;
  });
  return [...blocks.slice(0, lastParagraph + 1), ...keptTail];
}
