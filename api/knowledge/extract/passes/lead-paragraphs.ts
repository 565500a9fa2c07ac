import type { Block } from "../html-blocks";
import { MAX_LINK_SHARE_OF_LEAD, SENTENCE_END } from "../rules";

/**
 * The paragraphs that open an article above the element Readability picked: a lead set in the
 * page's header ("<p class=lead>" beside the <h1>), a standfirst set as a long <h2>, the first rows
 * of a page builder's layout whose later rows Readability chose. Readability joins only the
 * siblings of its best element, so these are lost, and they are often the summary a visitor's
 * question is answered from. Measured on trafilatura's evaluation pages (decision 022).
 *
 * Walking up from the article's first block to the page's main heading, a block is taken when it
 * reads as a paragraph: a sentence of some length, few of its characters link text, not a list
 * entry. A heading over a taken paragraph is taken with it. A few other lines may stand between (a
 * byline, a date, a photo credit); they are passed over, not taken. Nothing is taken when more
 * lines than that stand in a row before the main heading is reached, or when there is none: what
 * stands above an article with no title between is as likely a cookie notice or an account
 * message, repeated on every page of the site. Only shapes are read, never words, so it holds in
 * every language.
 *
 * The page's own description (`<meta name=description>`, Open Graph's, Twitter's) names its summary
 * outright: a paragraph above the article that the description repeats is taken wherever the walk
 * stops, since sites put a deck or an abstract beyond a byline, a date and a photo, or under a title
 * set as an <h2>.
 */

/** A paragraph this long at least: shorter lines above an article are bylines, dates and labels. */
const PARAGRAPH_CHARS = 60;
/** A "heading" this long that ends like a sentence is a standfirst, set in a heading's type. */
const STANDFIRST_CHARS = 100;
/** Other lines that may stand in a row between the title and the lead (byline, date, credit). */
const LINES_PASSED_OVER = 2;

const readsAsParagraph = (block: Block) =>
  !block.item &&
  !block.pathOnly &&
  (block.linkChars ?? 0) <= MAX_LINK_SHARE_OF_LEAD * block.text.length &&
  block.text.length >= (block.kind === "heading" ? STANDFIRST_CHARS : PARAGRAPH_CHARS) &&
  SENTENCE_END.test(block.text);

const squeezed = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();
/** A description cut short by its site ("… the first of its kind …"): what stands before the ellipsis. */
const TRUNCATED = /\s*(…|\.\.\.)$/u;

/**
 * A description longer than this is no search result's summary (they run to a few hundred
 * characters): it is not read, so a page cannot make each of its blocks be searched in a long one.
 */
const MAX_DESCRIPTION_CHARS = 1000;

/** A page's descriptions as compared: squeezed, each without the ellipsis of a cut one, and whether it was cut. */
function describedAs(descriptions: string[]) {
  return descriptions
    .filter((description) => description.length <= MAX_DESCRIPTION_CHARS)
    .map((description) => {
      const whole = squeezed(description);
      const said = whole.replace(TRUNCATED, "");
      return { said, cut: said !== whole };
    })
    .filter(({ said }) => said.length >= PARAGRAPH_CHARS);
}

/**
 * Whether a block is the summary the page describes itself with (its `<meta name=description>`,
 * Open Graph or Twitter description): held by the description, or opening one that was cut.
 */
function isDescribedSummary(block: Block, described: ReturnType<typeof describedAs>) {
  if (
    block.item ||
    block.pathOnly ||
    block.text.length < PARAGRAPH_CHARS ||
    (block.linkChars ?? 0) > MAX_LINK_SHARE_OF_LEAD * block.text.length
  )
    return false;
  const text = squeezed(block.text);
  return described.some(({ said, cut }) => said.includes(text) || (cut && text.startsWith(said)));
}

/**
 * The article's blocks with the paragraphs found between the page's main heading and it, and any
 * paragraph above it that the page's own description repeats. `pageBlocks` are the whole page's
 * blocks (after the pre-cut), `article` Readability's, `descriptions` the page's meta descriptions;
 * nothing is added when none of the article's blocks can be found on the page as they are.
 */
export function withLeadParagraphs(pageBlocks: Block[], article: Block[], descriptions: string[] = []): Block[] {
  if (!article.length) return article;
  const inArticle = new Set(article.map((block) => block.text));
  const first = pageBlocks.findIndex((block) => inArticle.has(block.text));
  if (first <= 0) return article;
  // Readability may have joined or reworded the page's blocks: what its text already holds is not taken again.
  const articleText = article.map((block) => block.text).join("\n");
  const walked = walkToTitle(pageBlocks, first, articleText);
  // A paragraph the page's description repeats is the article's summary wherever it stands above
  // the article (a deck under a title set as <h2>, an abstract Readability passed by for the
  // references, a lead beyond a byline, a date and a photo): the page says so itself. Below the
  // main heading when one stands above the article, so that a site's tagline in the header, often
  // also its pages' description, is not taken for one.
  const title = pageBlocks.findIndex((block) => block.kind === "heading" && (block.level ?? 2) <= 1);
  const summaries = describedAs(descriptions);
  const described = summaries.length
    ? pageBlocks
        .slice(title !== -1 && title < first ? title + 1 : 0, first)
        .filter(
          (block) =>
            !walked.includes(block) && !articleText.includes(block.text) && isDescribedSummary(block, summaries),
        )
    : [];
  // A standfirst set as a heading is text: it must not become a heading path.
  const lead = pageBlocks
    .slice(0, first)
    .filter((block) => walked.includes(block) || described.includes(block))
    .map((block) =>
      block.kind === "heading" && (readsAsParagraph(block) || described.includes(block))
        ? { kind: "text" as const, text: block.text }
        : block,
    );
  return [...lead, ...article];
}

/**
 * The lead paragraphs (and headings over them) found walking up from the article's first block
 * (`first`) to the page's main heading; none when the walk does not reach it.
 */
function walkToTitle(pageBlocks: Block[], first: number, articleText: string): Block[] {
  const lead: Block[] = [];
  let passedOver = 0;
  let paragraphBelow = false;
  for (let at = first - 1; at >= 0; at--) {
    const block = pageBlocks[at];
    if (block.kind === "heading" && (block.level ?? 2) <= 1) return lead;
    if (readsAsParagraph(block) && !articleText.includes(block.text)) {
      lead.unshift(block);
      passedOver = 0;
      paragraphBelow = true;
    } else if (block.kind === "heading") {
      if (paragraphBelow) lead.unshift(block);
    } else {
      paragraphBelow = false;
      if (++passedOver > LINES_PASSED_OVER) return [];
    }
  }
  return [];
}
