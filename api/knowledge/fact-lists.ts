import { blocksOf, type Block, type DomNode } from "./html-blocks";
import { HOLDS_DATA } from "./trailing-furniture";

/**
 * Lists of facts Readability leaves beside the article: a program's "Quick facts" (credits: 120,
 * length: 4 years), an event's date and place, an office's hours. Readability joins a sibling of
 * its article only when its text scores like prose, and a list of short figures never does, so
 * the numbers a visitor asks for first were lost. A list inside the page's `<main>` or `<article>`,
 * titled by a heading right above it (not the page's own), whose entries are short and mostly hold
 * data (a figure, an address, "Label: value"), with little link text, is such a list; left behind,
 * it is added to the article with its heading, on the side of the article it stood on. Measured in
 * decision 022.
 */

export interface FactNode extends DomNode {
  parentNode: FactNode | null;
  previousElementSibling: FactNode | null;
  contains(node: FactNode): boolean;
  setAttribute(name: string, value: string): void;
  querySelectorAll(selector: string): ArrayLike<FactNode>;
}
export interface FactRoot { querySelectorAll(selector: string): ArrayLike<FactNode> }

/** Entries of a facts list: at least this many … */
const MIN_ENTRIES = 2;
/** … each at most this long … */
const MAX_ENTRY_CHARS = 120;
/** … and at least this share of them holding data. */
const MIN_DATA_SHARE = 0.6;
/** Lists mostly of links are navigation or teasers. */
const MAX_LINK_SHARE = 0.3;
const HEADING = /^h([1-6])$/;
/** A box's title: any heading but the page's own (a byline's list stands under that). */
const BOX_TITLE = /^h[2-6]$/;
/**
 * The mark a facts list (and its heading) carries through Readability. Readability may read the
 * page a second time from a copy of its markup, so the elements found before are not those it
 * works on: the mark is found again in whichever tree it left.
 */
const MARK = "data-facts-list";

const textOf = (node: DomNode) => (node.textContent ?? "").replace(/\s+/g, " ").trim();

function isFactList(list: FactNode) {
  const entries = Array.from(list.querySelectorAll(list.localName === "dl" ? "dd" : "li"));
  if (entries.length < MIN_ENTRIES) return false;
  const texts = entries.map(textOf);
  if (texts.some((text) => text.length > MAX_ENTRY_CHARS)) return false;
  const dataShare = texts.filter((text) => HOLDS_DATA.test(text)).length / texts.length;
  const all = textOf(list).length;
  const links = Array.from(list.querySelectorAll("a")).reduce((sum, link) => sum + textOf(link).length, 0);
  return dataShare >= MIN_DATA_SHARE && all > 0 && links <= MAX_LINK_SHARE * all;
}

/** Before Readability runs: marks the facts lists inside the page's main content, each with the heading right above it. */
export function markFactLists(document: FactRoot) {
  const lists: FactNode[] = [];
  for (const list of Array.from(document.querySelectorAll("main ul, main ol, main dl, article ul, article ol, article dl, [role=main] ul, [role=main] ol, [role=main] dl"))) {
    if (lists.some((known) => known.contains(list)) || !isFactList(list)) continue;
    // A box of facts is titled ("Quick facts", "At a glance"); an untitled list of figures is a
    // byline's, a comment's or a paper's metrics.
    const heading = list.previousElementSibling ?? list.parentNode?.previousElementSibling ?? null;
    if (!heading || !BOX_TITLE.test(heading.localName ?? "")) continue;
    lists.push(list);
    const mark = String(lists.length);
    list.setAttribute(MARK, mark);
    heading.setAttribute(MARK, mark);
  }
  return lists.length;
}

/**
 * After: the blocks of the marked lists Readability neither took nor removed, with their headings,
 * split into those standing before the article's first block on the page and those after it.
 */
export function leftFactBlocks(document: FactRoot, article: DomNode, pageBlocks: Block[], articleBlocks: Block[]) {
  const taken = new Set(Array.from((article as unknown as FactRoot).querySelectorAll(`[${MARK}]`), (node) => node.getAttribute?.(MARK)));
  const left = new Map<string, FactNode[]>();
  for (const node of Array.from(document.querySelectorAll(`[${MARK}]`))) {
    const mark = node.getAttribute?.(MARK) ?? "";
    if (!taken.has(mark)) left.set(mark, [...(left.get(mark) ?? []), node]);
  }
  const firstText = articleBlocks.find((block) => !block.pathOnly)?.text;
  const articleAt = firstText === undefined ? -1 : pageBlocks.findIndex((block) => block.text === firstText);
  const before: Block[] = [];
  const after: Block[] = [];
  for (const nodes of left.values()) {
    // A list without its entries (its heading alone was left) is nothing to add.
    if (!nodes.some((node) => !HEADING.test(node.localName ?? ""))) continue;
    // blocksOf reads what an element holds: the heading itself is made a heading here.
    const blocks = nodes.flatMap((node): Block[] => {
      const level = HEADING.exec(node.localName ?? "")?.[1];
      return level ? [{ kind: "heading", level: Number(level), text: textOf(node) }] : blocksOf(node);
    });
    if (!blocks.length) continue;
    const at = pageBlocks.findIndex((block) => block.text === blocks[0].text);
    (articleAt !== -1 && at !== -1 && at < articleAt ? before : after).push(...blocks);
  }
  return { before, after };
}
