import { elementChildrenOf, makeOf, textOf, type ReadNode } from "../dom-reading";
import { blocksOf, type Block, type DomNode } from "../html-blocks";
import type { PageView, ViewedElement } from "../page-view";
import { HEADING, HOLDS_DATA, MAX_LINK_SHARE_OF_FACT_BOX } from "../rules";

/**
 * Boxes of facts Readability leaves beside the article: a program's "Quick facts" (credits: 120,
 * length: 4 years), an event's table of date and place, a row of plans with their prices, an
 * office's hours. Readability joins a sibling of its article only when its text scores like prose,
 * and a list of short figures never does, so the numbers a visitor asks for first were lost. A
 * list, a table or a row of cards inside the page's `<main>` or `<article>`, titled by a heading
 * right above it (not the page's own) or a caption, whose entries are short and mostly hold data
 * (a figure, an address, "Label: value"), with little link text, is such a box; left behind, it is
 * added to the article with its title, on the side of the article it stood on. Measured in
 * decision 022.
 */

export interface FactNode extends ReadNode {
  parentNode: FactNode | null;
  previousElementSibling: FactNode | null;
  contains(node: FactNode): boolean;
  setAttribute(name: string, value: string): void;
  querySelectorAll(selector: string): ArrayLike<FactNode>;
}
export interface FactRoot {
  querySelectorAll(selector: string): ArrayLike<FactNode>;
}

/** Entries of a facts list: at least this many … */
const MIN_ENTRIES = 2;
/** … each at most this long (a card, a name with its price and a few lines, at most the longer) … */
const MAX_ENTRY_CHARS = 120;
const MAX_CARD_CHARS = 300;
/** … and at least this share of them holding data. */
const MIN_DATA_SHARE = 0.6;
/** A box's title: any heading but the page's own (a byline's list stands under that). */
const isBoxTitle = (name: string) => Number(HEADING.exec(name)?.[1]) > 1;
/**
 * The mark a box of facts (and its title) carries through Readability. Readability may read the
 * page a second time from a copy of its markup, so the elements found before are not those it
 * works on: the mark is found again in whichever tree it left.
 */
const MARK = "data-facts-box";
/** Where a box of facts may be, inside the page's content: a list, a table, or a row of cards (checked by its entries). */
const CANDIDATES = new Set(["ul", "ol", "dl", "table", "div", "section"]);

/**
 * A box's entries and how long each may be: a list's items, a table's rows, or the cards of a row
 * (two or more element children all made alike, the same element and class); none for anything else.
 */
function entriesOf(box: FactNode): { entries: FactNode[]; maxChars: number } {
  const name = box.localName ?? "";
  if (name === "ul" || name === "ol")
    return { entries: elementChildrenOf(box).filter((child) => child.localName === "li"), maxChars: MAX_ENTRY_CHARS };
  if (name === "dl") return { entries: Array.from(box.querySelectorAll("dd")), maxChars: MAX_ENTRY_CHARS };
  if (name === "table") return { entries: Array.from(box.querySelectorAll("tr")), maxChars: MAX_ENTRY_CHARS };
  const cards = elementChildrenOf(box);
  return {
    entries: cards.length && cards.every((card) => makeOf(card) === makeOf(cards[0])) ? cards : [],
    maxChars: MAX_CARD_CHARS,
  };
}

function isFactBox(box: FactNode, view: PageView) {
  const { entries, maxChars } = entriesOf(box);
  if (entries.length < MIN_ENTRIES) return false;
  // A box inside another is looked at again, its entries too: their text is measured once (view).
  const texts = entries.map((entry) => view.textOf(entry as unknown as ViewedElement));
  if (texts.some((text) => text.length > maxChars)) return false;
  const dataShare = texts.filter((text) => HOLDS_DATA.test(text)).length / texts.length;
  return dataShare >= MIN_DATA_SHARE && view.linkShareOf(box as unknown as ViewedElement) <= MAX_LINK_SHARE_OF_FACT_BOX;
}

/** A box's title: the heading right above it (or above its wrapper), or a table's own caption. */
function titleOf(box: FactNode) {
  if (box.localName === "table" && box.querySelectorAll("caption").length) return box;
  const heading = box.previousElementSibling ?? box.parentNode?.previousElementSibling ?? null;
  return heading && isBoxTitle(heading.localName ?? "") ? heading : null;
}

/**
 * Before Readability runs: marks the boxes of facts inside the page's main content (lists, tables,
 * rows of cards), each with its title. A box of facts is titled ("Quick facts", "At a glance",
 * "Plans"); an untitled list of figures is a byline's, a comment's or a paper's metrics. Answers
 * whether any element of the page bears the mark now (leftFactBlocks has nothing to look for
 * otherwise): a box marked, or an element whose page wrote the attribute itself.
 */
export function markFactBoxes(view: PageView) {
  const marked = view.elements.some((element) => element.hasAttribute(MARK));
  const boxes: FactNode[] = [];
  for (const element of view.elements) {
    if (!CANDIDATES.has(element.localName) || !view.inContent(element)) continue;
    const box = element as unknown as FactNode;
    // The title first: most elements have none, and it costs nothing to look. Candidates come in
    // the page's order and marked boxes never nest, so a box inside one is inside the last marked.
    const title = titleOf(box);
    if (!title || boxes.at(-1)?.contains(box) || !isFactBox(box, view)) continue;
    boxes.push(box);
    const mark = String(boxes.length);
    box.setAttribute(MARK, mark);
    if (title !== box) title.setAttribute(MARK, mark);
  }
  return marked || boxes.length > 0;
}

/**
 * After: the blocks of the marked boxes Readability neither took nor removed, with their titles,
 * split into those standing before the article's first block on the page and those after it.
 */
export function leftFactBlocks(document: FactRoot, article: DomNode, pageBlocks: Block[], articleBlocks: Block[]) {
  const taken = new Set(
    Array.from((article as unknown as FactRoot).querySelectorAll(`[${MARK}]`), (node) => node.getAttribute?.(MARK)),
  );
  const left = new Map<string, FactNode[]>();
  for (const node of Array.from(document.querySelectorAll(`[${MARK}]`))) {
    const mark = node.getAttribute?.(MARK) ?? "";
    if (!taken.has(mark)) left.set(mark, [...(left.get(mark) ?? []), node]);
  }
  // Where each text first stands on the page, read once (a page may leave thousands of boxes).
  const placeOf = new Map<string, number>();
  pageBlocks.forEach((block, at) => {
    if (!placeOf.has(block.text)) placeOf.set(block.text, at);
  });
  const firstText = articleBlocks.find((block) => !block.pathOnly)?.text;
  const articleAt = firstText === undefined ? -1 : (placeOf.get(firstText) ?? -1);
  const before: Block[] = [];
  const after: Block[] = [];
  for (const nodes of left.values()) {
    // A title without its box (the box was taken or removed) is nothing to add.
    if (!nodes.some((node) => !HEADING.test(node.localName ?? ""))) continue;
    // blocksOf reads what an element holds: the heading itself is made a heading here.
    const blocks = nodes.flatMap((node): Block[] => {
      const level = HEADING.exec(node.localName ?? "")?.[1];
      return level ? [{ kind: "heading", level: Number(level), text: textOf(node) }] : blocksOf(node);
    });
    if (!blocks.length) continue;
    const at = placeOf.get(blocks[0].text) ?? -1;
    (articleAt !== -1 && at !== -1 && at < articleAt ? before : after).push(...blocks);
  }
  return { before, after };
}
