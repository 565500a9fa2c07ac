import { Readability } from "@mozilla/readability";
import { blocksOf, type Block, type DomNode } from "./html-blocks";
import {
  removeBoilerplateBoxes,
  removeFurniture,
  removeOperatorSelectors,
  removePictureCaptions,
  type CleanupRules,
} from "./html-cleanup";
import { precutDocument, type PrecutPage } from "./html-precut";
import { putBackLeftCards, rowsOf } from "./passes/sibling-cards";
import { leftFactBlocks, markFactBoxes, type FactRoot } from "./passes/fact-boxes";
import { withLeadParagraphs } from "./passes/lead-paragraphs";
import { withoutCreditLines } from "./passes/credit-lines";
import { withoutPointerLines } from "./passes/pointer-lines";
import { withoutTrailingFurniture } from "./passes/trailing-furniture";
import { CONTENT_ROLE } from "./rules";

export type { Block } from "./html-blocks";
export type { CleanupRules } from "./html-cleanup";

export interface ExtractedPage {
  title: string;
  blocks: Block[];
  /** The main text, blocks separated by blank lines. */
  text: string;
}

type HtmlDocument = ReturnType<typeof precutDocument>["document"];

/**
 * Readability's article is trusted unless it holds less than this share of the text a reader sees
 * on the page and the cleaned body holds clearly more: then the extractor has latched onto one
 * box of a page whose content is spread out (listings, reference pages, short pages).
 */
const MIN_SHARE_OF_VISIBLE = 0.15;

/**
 * Pages Readability would take too long over are read as their cleaned body. Readability weighs
 * each container by the text of all it holds, once for each kind of element it cleans, so its cost
 * grows with the elements times their depth, and with the text times the square of its depth:
 * - 100 nested <div>s around 100,000 short elements took 40 s. Readability's own `maxElemsToParse`
 *   would bound them, but it counts with getElementsByTagName("*"), which linkedom answers with
 *   none. The 372 pages of the development sets hold 308 elements at the median once pre-cut,
 *   2,374 at the 99th percentile and 4,678 at the most.
 * - 40 KB of text in 128 nested <div>s took 16 s: its weight (characters × depth², the pre-cut's
 *   `nestedTextWeight`) is 6.5 × 10⁸. The development sets' pages weigh 4.3 × 10⁵ at the median,
 *   5.5 × 10⁶ at the 99th percentile and 2.7 × 10⁷ at the most (190 KB of text).
 */
const MAX_READABLE_ELEMENTS = 20_000;
const MAX_READABLE_TEXT_WEIGHT = 1e8;

/** Whether Readability's cost on a pre-cut page is bounded enough to read it (above). */
export const withinReadabilityBounds = ({
  elements,
  nestedTextWeight,
}: Pick<PrecutPage, "elements" | "nestedTextWeight">) =>
  elements <= MAX_READABLE_ELEMENTS && nestedTextWeight <= MAX_READABLE_TEXT_WEIGHT;

const clean = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();
const lengthOf = (blocks: Block[]) => blocks.reduce((sum, b) => sum + b.text.length, 0);

function parse(html: string, rules: CleanupRules) {
  const page = precutDocument(html);
  const { document, visibleChars, declaredTypes } = page;
  removeOperatorSelectors(document, rules);
  if (document.body) {
    removeBoilerplateBoxes(document.body);
    removePictureCaptions(document.body);
  }
  return { document, visibleChars, declaredTypes, readable: withinReadabilityBounds(page) };
}

/** schema.org's types of a page about one product for sale. */
const PRODUCT_TYPES = new Set(["product", "productgroup", "individualproduct", "productmodel"]);

/**
 * A page that says it is a product's (in its structured data, or as Open Graph's `og:type`): not
 * an article. Its name, price, stock, description and specifications stand in boxes of their own,
 * and Readability keeps the largest, the description, without the price a visitor asks about.
 */
function isProductPage(document: HtmlDocument, declaredTypes: Set<string>) {
  if ([...declaredTypes].some((type) => PRODUCT_TYPES.has(type))) return true;
  const ogType = document.querySelector('meta[property="og:type" i]')?.getAttribute("content") ?? "";
  return /^(og:)?product(\.item|\.group)?$/i.test(ogType.trim());
}

function titleOf(document: HtmlDocument) {
  const og = document.querySelector('meta[property="og:title"]')?.getAttribute("content");
  return clean(document.querySelector("title")?.textContent) || clean(og);
}

/**
 * Two of Readability's passes do nothing for us and cost a fifth to a quarter of the extraction's
 * time (decision 019): links are made absolute, but only text is kept; and every node's style is
 * read for visibility, but the pre-cut pass already left hidden nodes out (html-precut.ts). They
 * are private methods, so extract.test.ts checks that an upgrade still has them under these names.
 */
function skipWorkWeDoNotNeed(reader: Readability<DomNode>) {
  const internals = reader as unknown as { _fixRelativeUris: () => void; _isProbablyVisible: () => boolean };
  internals._fixRelativeUris = () => {};
  internals._isProbablyVisible = () => true;
}

/** Where a page describes itself: the summary its search result and link previews show. */
const DESCRIPTION_SELECTOR =
  'meta[name="description" i], meta[property="og:description" i], meta[name="twitter:description" i]';

/**
 * Mozilla's Readability: the article's element, walked into blocks, with the lead paragraphs above
 * it on the page, and the summary its description repeats (lead-paragraphs.ts); [] when it finds none.
 */
function readabilityBlocks(document: HtmlDocument): { blocks: Block[]; title: string } {
  try {
    // Read before Readability takes its article's nodes out of the page.
    const pageBlocks = document.body ? blocksOf(document.body as unknown as DomNode) : [];
    const descriptions = Array.from(
      document.querySelectorAll(DESCRIPTION_SELECTOR),
      (meta) => meta.getAttribute("content") ?? "",
    );
    // Read before too: which element stood in which row of cards (sibling-cards.ts).
    const rows = document.body ? rowsOf(document.body as unknown as DomNode) : null;
    // And which boxes of facts stood beside the article (fact-boxes.ts).
    markFactBoxes(document as unknown as FactRoot);
    const reader = new Readability<DomNode>(document as unknown as Document, {
      keepClasses: true,
      serializer: (node) => node as unknown as DomNode,
    });
    skipWorkWeDoNotNeed(reader);
    const article = reader.parse();
    if (!article?.content) return { blocks: [], title: "" };
    // Cards made like those Readability took, left behind only for being short.
    if (rows) putBackLeftCards(article.content, rows);
    const articleBlocks = blocksOf(article.content);
    // Boxes of facts (credits, dates, prices, hours) it left beside the article, each on its side of it.
    const left = leftFactBlocks(document as unknown as FactRoot, article.content, pageBlocks, articleBlocks);
    return {
      blocks: [...left.before, ...withLeadParagraphs(pageBlocks, articleBlocks, descriptions), ...left.after],
      title: clean(article.title),
    };
  } catch {
    // A page Readability cannot walk is read through the cleaned body instead.
    return { blocks: [], title: "" };
  }
}

/** The page without furniture: the <main> or the single <article> when there is one, else the body. */
function cleanedBodyBlocks(document: HtmlDocument): Block[] {
  removeFurniture(document);
  const articles = document.querySelectorAll("article");
  const root = document.querySelector(`main, [role=${CONTENT_ROLE}]`) ?? (articles.length === 1 ? articles[0] : null);
  const main = root ? blocksOf(root as unknown as DomNode) : [];
  return lengthOf(main) > 0 ? main : blocksOf((document.body ?? document) as unknown as DomNode);
}

/**
 * The title and main text of an HTML page. The operator's clean-up selectors and hidden nodes go
 * first; Mozilla's Readability picks the article; where it finds nothing, or far less than the
 * page shows, the cleaned body text is used instead, so a page with text never comes out empty.
 * A product's page is no article: its cleaned body is read whole (isProductPage).
 */
export function extractHtml(html: string, rules: CleanupRules = {}): ExtractedPage {
  const { document, visibleChars, declaredTypes, readable: forReadability } = parse(html, rules);
  const pageTitle = titleOf(document);
  const mainHeading = clean(document.querySelector("h1")?.textContent);
  if (isProductPage(document, declaredTypes)) {
    // The whole of the page's main part, without its furniture, is the product's text.
    const body = cleanedBodyBlocks(document);
    if (body.length) return pageOf(pageTitle, mainHeading, body, "");
  }
  const readable = forReadability ? readabilityBlocks(document) : { blocks: [], title: "" };
  let blocks = readable.blocks;
  if (lengthOf(blocks) < visibleChars * MIN_SHARE_OF_VISIBLE || blocks.length === 0) {
    const body = cleanedBodyBlocks(parse(html, rules).document);
    if (lengthOf(body) > lengthOf(blocks) * 1.5) blocks = body;
  }
  return pageOf(pageTitle, mainHeading, blocks, readable.title);
}

/** The page's title and blocks, the blocks without the lines that point elsewhere, trail the text or credit a picture. */
function pageOf(pageTitle: string, mainHeading: string, extracted: Block[], readableTitle: string): ExtractedPage {
  let blocks = withoutCreditLines(withoutPointerLines(withoutTrailingFurniture(extracted)));
  // Readability drops the heading that repeats the title; it stays the root of the heading paths.
  if (mainHeading && !blocks.some((b) => b.kind === "heading" && b.level === 1)) {
    blocks = [{ kind: "heading", level: 1, text: mainHeading, pathOnly: true }, ...blocks];
  }
  const title = pageTitle || readableTitle || blocks.find((b) => b.kind === "heading")?.text || "";
  return { title, blocks, text: blocks.map((b) => b.text).join("\n\n") };
}
