import type { Block } from "../html-blocks";
import { wordCountOf } from "../../words/lexemes";
import { HEADLINE_WORDS, MIN_LINK_SHARE_OF_POINTER } from "../rules";

/**
 * "Read also: <a>another story</a>", "See too: <a>…</a>": a line made of a short label and a link
 * to another page, set between an article's paragraphs; and a run of lines that are each a
 * headline-long link (teasers of other articles, set as paragraphs rather than a list). Readability
 * keeps both, as they stand inside the article's element; they point elsewhere and answer nothing.
 * Measured on trafilatura's evaluation pages (decision 022).
 */

/** A label of a few words closed by a colon, opening the line ("Czytaj też: ", "VEA TAMBIÉN: "). */
const LABEL = /^[^:.!?\n]{2,30}:\s/u;
/** The line is no longer than this: a paragraph with a link in it is text. */
const MAX_CHARS = 200;

/**
 * A label followed by a link that fills most of the line. The label itself is not link text: a
 * line that is nothing but a link ("Download the report") is left alone, as are list entries.
 */
export function isPointerLine(block: Block) {
  const linkChars = block.linkChars ?? 0;
  return (
    !block.item &&
    block.text.length <= MAX_CHARS &&
    !block.text.includes("\n") &&
    linkChars >= MIN_LINK_SHARE_OF_POINTER * block.text.length &&
    linkChars < block.text.length &&
    LABEL.test(block.text)
  );
}

/**
 * A line that is nothing but a link the length of a headline, outside a list: a teaser for another
 * page ("Ten quiet beaches for an autumn weekend"). One alone may be the article's
 * own pointer; two or more in a row are a block of teasers.
 */
const isHeadlineLink = (block: Block | undefined) =>
  !!block &&
  block.kind === "text" &&
  !block.item &&
  !block.text.includes("\n") &&
  (block.linkChars ?? 0) >= block.text.length &&
  wordCountOf(block.text) >= HEADLINE_WORDS;

/** The blocks without pointer lines and without runs of headline links. */
export const withoutPointerLines = (blocks: Block[]) =>
  blocks.filter(
    (block, at) =>
      !isPointerLine(block) &&
      !(isHeadlineLink(block) && (isHeadlineLink(blocks[at - 1]) || isHeadlineLink(blocks[at + 1]))),
  );
