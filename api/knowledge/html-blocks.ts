/**
 * Turns a DOM subtree (the extractor's article, or a cleaned body) into the blocks chunking works
 * on: headings with their level and paragraphs of text, in reading order. Table rows stay rows,
 * `<br>` stays a line break, preformatted text keeps its lines.
 */

export interface Block {
  kind: "heading" | "text";
  /** 1–6 for headings. */
  level?: number;
  text: string;
  /** A heading that names where the text is (a PDF's "Page 3") without being part of it. */
  pathOnly?: boolean;
}

/** The few DOM members the walker reads; linkedom's nodes and the browser's both have them. */
export interface DomNode {
  nodeType: number;
  localName?: string;
  nodeValue?: string | null;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

/** Set on a heading whose level the extractor may change (see html-precut). */
const HEADING_LEVEL = "data-heading-level";

const ELEMENT = 1;
const TEXT = 3;
const HEADING = /^h([1-6])$/;
/** Elements that never hold readable text. */
const SILENT = new Set(["script", "style", "noscript", "template", "svg", "math", "canvas", "iframe", "object", "embed", "video", "audio", "img", "picture", "source", "head", "link", "meta", "button", "select", "textarea", "input"]);
/** Inline elements: their text runs on with the text around them. Everything else is a block. */
const INLINE = new Set([
  "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd", "label", "mark", "q", "rp", "rt",
  "ruby", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr", "nobr", "big", "strike", "acronym",
]);

/** Collapses runs of spaces and tabs, keeps line breaks (from `<br>`), trims each line. */
export function tidy(text: string) {
  return text
    .replace(/\u00a0/g, " ")
    .split("\n")
    .map((line) => line.replace(/[ \t\r\f\v\u200b]+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}

const isElement = (node: DomNode) => node.nodeType === ELEMENT;
const nameOf = (node: DomNode) => (node.localName ?? "").toLowerCase();

/** The text of an inline run: elements' text with `<br>` as a newline and silent elements left out. */
function inlineText(node: DomNode): string {
  if (node.nodeType === TEXT) return (node.nodeValue ?? "").replace(/\s+/g, " ");
  if (!isElement(node)) return "";
  const name = nameOf(node);
  if (name === "br") return "\n";
  if (SILENT.has(name)) return "";
  let text = "";
  for (const child of Array.from(node.childNodes)) text += inlineText(child);
  // A block inside an inline run (a <div> in an <a>) still starts on its own line.
  return INLINE.has(name) ? text : `\n${text}\n`;
}

class BlockWriter {
  readonly blocks: Block[] = [];
  private open = "";

  text(run: string) {
    this.open += run;
  }

  /** Ends the paragraph being written, if it has any text. */
  close() {
    const text = tidy(this.open);
    if (text) this.blocks.push({ kind: "text", text });
    this.open = "";
  }

  push(block: Block) {
    this.close();
    if (block.text) this.blocks.push(block);
  }
}

function hasBlockChild(node: DomNode): boolean {
  for (const child of Array.from(node.childNodes)) {
    if (!isElement(child)) continue;
    const name = nameOf(child);
    if (SILENT.has(name) || name === "br") continue;
    if (!INLINE.has(name) || hasBlockChild(child)) return true;
  }
  return false;
}

/** A row of a data table, its cells separated by " | "; rows laying out paragraphs are walked as blocks. */
function tableRow(row: DomNode, out: BlockWriter) {
  const cells = Array.from(row.childNodes).filter((c) => isElement(c) && (nameOf(c) === "td" || nameOf(c) === "th"));
  if (cells.some(hasBlockChild)) {
    for (const cell of cells) walk(cell, out);
    return;
  }
  const text = cells.map((cell) => tidy(inlineText(cell)).replace(/\n/g, " ")).filter(Boolean).join(" | ");
  out.push({ kind: "text", text });
}

function walk(node: DomNode, out: BlockWriter) {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === TEXT) {
      out.text((child.nodeValue ?? "").replace(/\s+/g, " "));
      continue;
    }
    if (!isElement(child)) continue;
    const name = nameOf(child);
    if (SILENT.has(name)) continue;
    const heading = HEADING.exec(name);
    if (heading) {
      out.push({ kind: "heading", level: Number(child.getAttribute?.(HEADING_LEVEL) ?? heading[1]) || Number(heading[1]), text: tidy(inlineText(child)).replace(/\n/g, " ") });
    } else if (name === "br") {
      out.text("\n");
    } else if (name === "pre") {
      out.push({ kind: "text", text: (child.textContent ?? "").replace(/\u00a0/g, " ").replace(/^\n+|\s+$/g, "") });
    } else if (name === "tr") {
      tableRow(child, out);
    } else if (INLINE.has(name) && !hasBlockChild(child)) {
      out.text(inlineText(child));
    } else {
      out.close();
      walk(child, out);
      out.close();
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
