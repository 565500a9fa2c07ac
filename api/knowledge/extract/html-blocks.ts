/**
 * Turns a DOM subtree (the extractor's article, or a cleaned body) into the blocks chunking works
 * on: headings with their level and paragraphs of text, in reading order. Table rows stay rows,
 * `<br>` stays a line break, preformatted text keeps its lines.
 */
import { ELEMENT_NODE, HEADING, HEADING_LEVEL, NOT_WALKED, TEXT_NODE } from "./rules";

export interface Block {
  kind: "heading" | "text";
  /** 1–6 for headings. */
  level?: number;
  text: string;
  /** A heading that names where the text is (a PDF's "Page 3") without being part of it. */
  pathOnly?: boolean;
  /** Text of a list item or a table row: an entry of a list, which says its part in a few words. */
  item?: boolean;
  /** Characters of the text that are a link's (set when some are): a line that is mostly a link points elsewhere. */
  linkChars?: number;
}

/** The few DOM members the walker reads; linkedom's nodes and the browser's both have them. */
export interface DomNode {
  nodeType: number;
  localName?: string;
  nodeValue?: string | null;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  /**
   * The walk steps through children with these: linkedom builds a new list for each read of
   * `childNodes`, which was a tenth of the walk's time and much of its garbage.
   */
  firstChild: DomNode | null;
  nextSibling: DomNode | null;
  getAttribute?(name: string): string | null;
}

/** Elements whose text is an entry of a list (with table rows): marked `item` on the blocks they give. */
const ITEMS = new Set(["li", "dt", "dd"]);
/** Inline elements: their text runs on with the text around them. Everything else is a block. */
const INLINE = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "bdo",
  "cite",
  "code",
  "data",
  "del",
  "dfn",
  "em",
  "font",
  "i",
  "ins",
  "kbd",
  "label",
  "mark",
  "q",
  "rp",
  "rt",
  "ruby",
  "s",
  "samp",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "time",
  "tt",
  "u",
  "var",
  "wbr",
  "nobr",
  "big",
  "strike",
  "acronym",
]);

/**
 * Runs of spaces, tabs, no-break and zero-width spaces that are not already one plain space: each
 * becomes one space. Matching only what changes matters, since most of a page's spaces are single
 * (replacing every one with itself took three times as long).
 */
const SPACE_RUN = /[ \t\r\f\v\u00a0\u200b]{2,}|[\t\r\f\v\u00a0\u200b]/g;
/** Whitespace runs (line breaks included) that are not already one plain space. */
const WHITESPACE_RUN = /\s{2,}|[^\S ]/g;

/** A text node's text with its whitespace runs as single spaces (HTML's line breaks are only spaces). */
const collapsed = (value: string | null | undefined) => (value ?? "").replace(WHITESPACE_RUN, " ");

/** Collapses runs of spaces and tabs, keeps line breaks (from `<br>`), trims each line. */
export function tidy(text: string) {
  if (!text.includes("\n")) return text.replace(SPACE_RUN, " ").trim();
  return text
    .split("\n")
    .map((line) => line.replace(SPACE_RUN, " ").trim())
    .filter(Boolean)
    .join("\n");
}

const isElement = (node: DomNode) => node.nodeType === ELEMENT_NODE;
const nameOf = (node: DomNode) => (node.localName ?? "").toLowerCase();

/** Characters of link text met while reading a run. */
interface LinkCount {
  chars: number;
}

/**
 * The text of an inline run: elements' text with `<br>` as a newline and silent elements left out.
 * The characters inside links are added to `links`.
 */
function inlineText(node: DomNode, links: LinkCount, inLink = false): string {
  if (node.nodeType === TEXT_NODE) {
    const text = collapsed(node.nodeValue);
    if (inLink) links.chars += text.length;
    return text;
  }
  if (!isElement(node)) return "";
  const name = nameOf(node);
  if (name === "br") return "\n";
  if (NOT_WALKED.has(name)) return "";
  let text = "";
  const linked = inLink || name === "a";
  for (let child = node.firstChild; child; child = child.nextSibling) text += inlineText(child, links, linked);
  // A block inside an inline run (a <div> in an <a>) still starts on its own line.
  return INLINE.has(name) ? text : `\n${text}\n`;
}

class BlockWriter {
  readonly blocks: Block[] = [];
  private open = "";
  private openLinkChars = 0;
  /** List items and table rows being walked: their paragraphs are items. */
  itemDepth = 0;
  /** Links being walked (a link around blocks): their text is link text. */
  linkDepth = 0;

  /** Adds a run to the paragraph being written, `linkChars` of it inside links. */
  text(run: string, linkChars = 0) {
    this.open += run;
    this.openLinkChars += this.linkDepth ? run.length : linkChars;
  }

  /** Ends the paragraph being written, if it has any text. */
  close() {
    const text = tidy(this.open);
    if (text)
      this.blocks.push(
        this.marked({ kind: "text", text, ...(this.itemDepth ? { item: true } : {}) }, this.openLinkChars),
      );
    this.open = "";
    this.openLinkChars = 0;
  }

  push(block: Block, linkChars = 0) {
    this.close();
    if (block.text) this.blocks.push(this.marked(block, this.linkDepth ? block.text.length : linkChars));
  }

  /** The block with its link characters, when it has some. */
  private marked(block: Block, linkChars: number): Block {
    if (linkChars > 0) block.linkChars = Math.min(linkChars, block.text.length);
    return block;
  }
}

function hasBlockChild(node: DomNode): boolean {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (!isElement(child)) continue;
    const name = nameOf(child);
    if (NOT_WALKED.has(name) || name === "br") continue;
    if (!INLINE.has(name) || hasBlockChild(child)) return true;
  }
  return false;
}

/** A row of a data table, its cells separated by " | "; rows laying out paragraphs are walked as blocks. */
function tableRow(row: DomNode, out: BlockWriter) {
  const cells: DomNode[] = [];
  for (let c = row.firstChild; c; c = c.nextSibling)
    if (isElement(c) && (nameOf(c) === "td" || nameOf(c) === "th")) cells.push(c);
  if (cells.some(hasBlockChild)) {
    for (const cell of cells) walk(cell, out);
    return;
  }
  const links = { chars: 0 };
  const text = cells
    .map((cell) => tidy(inlineText(cell, links)).replace(/\n/g, " "))
    .filter(Boolean)
    .join(" | ");
  out.push({ kind: "text", text, item: true }, links.chars);
}

function walk(node: DomNode, out: BlockWriter) {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE) {
      out.text(collapsed(child.nodeValue));
      continue;
    }
    if (!isElement(child)) continue;
    const name = nameOf(child);
    if (NOT_WALKED.has(name)) continue;
    const heading = HEADING.exec(name);
    if (heading) {
      const links = { chars: 0 };
      const text = tidy(inlineText(child, links)).replace(/\n/g, " ");
      out.push(
        {
          kind: "heading",
          level: Number(child.getAttribute?.(HEADING_LEVEL) ?? heading[1]) || Number(heading[1]),
          text,
        },
        links.chars,
      );
    } else if (name === "br") {
      out.text("\n");
    } else if (name === "pre") {
      out.push({ kind: "text", text: (child.textContent ?? "").replace(/\u00a0/g, " ").replace(/^\n+|\s+$/g, "") });
    } else if (name === "tr") {
      tableRow(child, out);
    } else if (INLINE.has(name) && !hasBlockChild(child)) {
      const links = { chars: 0 };
      const run = inlineText(child, links);
      out.text(run, links.chars);
    } else {
      const item = ITEMS.has(name);
      // A link around blocks (a teaser card): all its text is link text.
      const link = name === "a";
      out.close();
      if (item) out.itemDepth++;
      if (link) out.linkDepth++;
      walk(child, out);
      out.close();
      if (item) out.itemDepth--;
      if (link) out.linkDepth--;
    }
  }
}

/** The blocks of a subtree, in document order, with empty ones left out. */
export function blocksOf(root: DomNode): Block[] {
  const out = new BlockWriter();
  walk(root, out);
  out.close();
  return out.blocks;
}
