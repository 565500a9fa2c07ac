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
import { PageView, type ViewedDocument, type ViewedElement } from "./page-view";
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

/** A <meta> whose attribute `name` holds `value`, whatever its case (CSS's `meta[name="value" i]`). */
const says = (meta: ViewedElement, name: string, value: string) => meta.getAttribute(name)?.toLowerCase() === value;

/** Where a page describes itself: the summary its search result and link previews show. */
const isDescription = (meta: ViewedElement) =>
  says(meta, "name", "description") ||
  says(meta, "property", "og:description") ||
  says(meta, "name", "twitter:description");

/** The page before Readability reads it, as the passes around Readability see it. */
interface WholePage {
  document: HtmlDocument;
  /** The one reading of the page its passes share (page-view.ts). */
  view: PageView;
  body: DomNode | null;
  /** The page's blocks, read before Readability takes its article's nodes out of the page. */
  blocks: Block[];
}

/** Readability's article: its element, and the blocks read from it before any pass changed them. */
interface Article {
  content: DomNode;
  blocks: Block[];
}

/** What a pass around Readability does to its article: to the element before its blocks are read, then to the blocks. */
interface ArticleWork {
  element?: (content: DomNode) => void;
  blocks?: (blocks: Block[], article: Article) => Block[];
}

/**
 * A pass of the extraction, in up to three steps, each run at its moment of every page:
 * - `page`: on the parsed page, before anything reads it (the cleaned body's second parse too);
 * - `aroundReadability`: on the whole page before Readability reads it, noting what Readability
 *   will take away or leave behind, and answering what to do to its article after; a page
 *   Readability does not read skips it;
 * - `blocks`: on the page's blocks, whichever way they were read (Readability's article, a cleaned body).
 */
interface Pass {
  /** How the benchmarks name the pass (bench/extraction-passes.ts). */
  name: string;
  page?: (document: HtmlDocument, rules: CleanupRules) => void;
  aroundReadability?: (page: WholePage) => ArticleWork;
  blocks?: (blocks: Block[]) => Block[];
}

/** The operator's "Clean up HTML Tags" selectors. */
const operatorSelectors: Pass = {
  name: "operator selectors",
  page: (document, rules) => removeOperatorSelectors(document, rules),
};

/** Boxes whose names mark them as boilerplate, which Readability would keep inside the article. */
const boilerplateBoxes: Pass = {
  name: "boilerplate boxes",
  page: (document) => {
    if (document.body) removeBoilerplateBoxes(document.body);
  },
};

/** Captions of pictures the chat never shows. */
const pictureCaptions: Pass = {
  name: "picture captions",
  page: (document) => {
    if (document.body) removePictureCaptions(document.body);
  },
};

/** The paragraphs above the article's element, and the summary the page's description repeats. */
const leadParagraphs: Pass = {
  name: "lead paragraphs",
  aroundReadability: (page) => {
    const descriptions = page.view
      .named("meta")
      .filter(isDescription)
      .map((meta) => meta.getAttribute("content") ?? "");
    return { blocks: (blocks) => withLeadParagraphs(page.blocks, blocks, descriptions) };
  },
};

/** Cards made like those Readability took, left behind only for being short. */
const siblingCards: Pass = {
  name: "sibling cards",
  aroundReadability: ({ view, body }) => {
    // Which element stood in which row of cards.
    const rows = body ? rowsOf(view, body) : null;
    return {
      element: (content) => {
        if (rows) putBackLeftCards(content, rows);
      },
    };
  },
};

/** Boxes of facts (credits, dates, prices, hours) Readability left beside the article, each on its side of it. */
const factBoxes: Pass = {
  name: "fact boxes",
  aroundReadability: (page) => {
    const document = page.document as unknown as FactRoot;
    if (!markFactBoxes(page.view)) return {};
    return {
      blocks: (blocks, article) => {
        // Placed by where the article's own first block stands, whatever the passes before added.
        const left = leftFactBlocks(document, article.content, page.blocks, article.blocks);
        return [...left.before, ...blocks, ...left.after];
      },
    };
  },
};

/** The labels and emptied headings after the article's last paragraph. */
const trailingFurniture: Pass = { name: "trailing furniture", blocks: withoutTrailingFurniture };
/** Lines that point elsewhere ("Read also: …") and runs of headline links. */
const pointerLines: Pass = { name: "pointer lines", blocks: withoutPointerLines };
/** Short lines crediting a picture or stating a copyright. */
const creditLines: Pass = { name: "credit lines", blocks: withoutCreditLines };

/** The passes in the order they run; at each moment of a page (Pass), those with a step for it run in this order. */
const PASSES: readonly Pass[] = [
  operatorSelectors,
  boilerplateBoxes,
  pictureCaptions,
  leadParagraphs,
  siblingCards,
  factBoxes,
  trailingFurniture,
  pointerLines,
  creditLines,
];

/** The passes' names, in the order they run. */
export const EXTRACTION_PASSES: readonly string[] = PASSES.map((pass) => pass.name);

/** Which passes a page goes through: all of them, unless a benchmark leaves some out to weigh them. */
export interface ExtractionOptions {
  withoutPasses?: ReadonlySet<string>;
}

function parse(html: string, rules: CleanupRules, passes: readonly Pass[]) {
  const page = precutDocument(html);
  const { document, visibleChars, declaredTypes } = page;
  for (const pass of passes) pass.page?.(document, rules);
  // Read once the passes above are done with the tree, and only when asked.
  const view = new PageView(document as unknown as ViewedDocument);
  return { document, view, visibleChars, declaredTypes, readable: withinReadabilityBounds(page) };
}

/** schema.org's types of a page about one product for sale. */
const PRODUCT_TYPES = new Set(["product", "productgroup", "individualproduct", "productmodel"]);

/**
 * A page that says it is a product's (in its structured data, or as Open Graph's `og:type`): not
 * an article. Its name, price, stock, description and specifications stand in boxes of their own,
 * and Readability keeps the largest, the description, without the price a visitor asks about.
 */
function isProductPage(view: PageView, declaredTypes: Set<string>) {
  if ([...declaredTypes].some((type) => PRODUCT_TYPES.has(type))) return true;
  const ogType =
    view
      .named("meta")
      .find((meta) => says(meta, "property", "og:type"))
      ?.getAttribute("content") ?? "";
  return /^(og:)?product(\.item|\.group)?$/i.test(ogType.trim());
}

function titleOf(view: PageView) {
  const og = view
    .named("meta")
    .find((meta) => meta.getAttribute("property") === "og:title")
    ?.getAttribute("content");
  return clean(view.first("title")?.textContent) || clean(og);
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

/**
 * Mozilla's Readability: the article's element, walked into blocks, with the passes around it
 * (PASSES); [] when it finds none.
 */
function readabilityBlocks(
  document: HtmlDocument,
  view: PageView,
  passes: readonly Pass[],
): { blocks: Block[]; title: string } {
  try {
    const body = document.body as unknown as DomNode | null;
    const page: WholePage = { document, view, body, blocks: body ? blocksOf(body) : [] };
    const work = passes.flatMap((pass) => (pass.aroundReadability ? [pass.aroundReadability(page)] : []));
    const reader = new Readability<DomNode>(document as unknown as Document, {
      keepClasses: true,
      serializer: (node) => node as unknown as DomNode,
    });
    skipWorkWeDoNotNeed(reader);
    const parsed = reader.parse();
    if (!parsed?.content) return { blocks: [], title: "" };
    for (const step of work) step.element?.(parsed.content);
    const article: Article = { content: parsed.content, blocks: blocksOf(parsed.content) };
    return {
      blocks: work.reduce((blocks, step) => step.blocks?.(blocks, article) ?? blocks, article.blocks),
      title: clean(parsed.title),
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
export function extractHtml(html: string, rules: CleanupRules = {}, options: ExtractionOptions = {}): ExtractedPage {
  const left = options.withoutPasses;
  const passes = left?.size ? PASSES.filter((pass) => !left.has(pass.name)) : PASSES;
  const { document, view, visibleChars, declaredTypes, readable: forReadability } = parse(html, rules, passes);
  const pageTitle = titleOf(view);
  const mainHeading = clean(view.first("h1")?.textContent);
  if (isProductPage(view, declaredTypes)) {
    // The whole of the page's main part, without its furniture, is the product's text.
    const body = cleanedBodyBlocks(document);
    if (body.length) return pageOf(pageTitle, mainHeading, body, "", passes);
  }
  const readable = forReadability ? readabilityBlocks(document, view, passes) : { blocks: [], title: "" };
  let blocks = readable.blocks;
  if (lengthOf(blocks) < visibleChars * MIN_SHARE_OF_VISIBLE || blocks.length === 0) {
    const body = cleanedBodyBlocks(parse(html, rules, passes).document);
    if (lengthOf(body) > lengthOf(blocks) * 1.5) blocks = body;
  }
  return pageOf(pageTitle, mainHeading, blocks, readable.title, passes);
}

/** The page's title and blocks, the blocks through the passes over blocks (PASSES). */
function pageOf(
  pageTitle: string,
  mainHeading: string,
  extracted: Block[],
  readableTitle: string,
  passes: readonly Pass[],
): ExtractedPage {
  let blocks = passes.reduce((passed, pass) => pass.blocks?.(passed) ?? passed, extracted);
  // Readability drops the heading that repeats the title; it stays the root of the heading paths.
  if (mainHeading && !blocks.some((b) => b.kind === "heading" && b.level === 1)) {
    blocks = [{ kind: "heading", level: 1, text: mainHeading, pathOnly: true }, ...blocks];
  }
  const title = pageTitle || readableTitle || blocks.find((b) => b.kind === "heading")?.text || "";
  return { title, blocks, text: blocks.map((b) => b.text).join("\n\n") };
}
