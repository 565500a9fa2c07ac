import type { Block } from "./html-blocks";

/**
 * "Read also: <a>another story</a>", "See too: <a>…</a>": a line made of a short label and a link
 * to another page, set between an article's paragraphs. Readability keeps it, as it stands inside
 * the article's element; it points elsewhere and answers nothing. Measured on trafilatura's
 * evaluation pages (decision 022): the lines went in every language the pages are in, while
 * Readability's own test pages lost no word.
 */

/** A label of a few words closed by a colon, opening the line ("Czytaj też: ", "VEA TAMBIÉN: "). */
const LABEL = /^[^:.!?\n]{2,30}:\s/u;
/** The link holds at least this share of the line's characters … */
const MIN_LINK_SHARE = 0.6;
/** … and the line is no longer than this: a paragraph with a link in it is text. */
const MAX_CHARS = 200;

/**
 * A label followed by a link that fills most of the line. The label itself is not link text: a
 * line that is nothing but a link ("Download the report") is left alone, as are list entries.
 */
export function isPointerLine(block: Block) {
  const linkChars = block.linkChars ?? 0;
  return !block.item && block.text.length <= MAX_CHARS && !block.text.includes("\n")
    && linkChars >= MIN_LINK_SHARE * block.text.length && linkChars < block.text.length && LABEL.test(block.text);
}

/** The blocks without pointer lines. */
export const withoutPointerLines = (blocks: Block[]) => blocks.filter((block) => !isPointerLine(block));
