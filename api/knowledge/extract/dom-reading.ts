import type { DomNode } from "./html-blocks";
import { ELEMENT_NODE } from "./rules";

/**
 * How the extraction's passes around Readability (sibling-cards.ts, fact-boxes.ts) read an element:
 * its text, its element children, what it is made as, and how much of it is links.
 */

/** The DOM members these need (linkedom's elements have them). */
export interface ReadNode extends DomNode {
  querySelectorAll(selector: string): ArrayLike<ReadNode>;
}

/** An element's text, its whitespace runs single spaces. */
export const textOf = (node: DomNode) => (node.textContent ?? "").replace(/\s+/g, " ").trim();

/** An element's children that are elements, in order. */
export const elementChildrenOf = <T extends DomNode>(node: T) =>
  Array.from(node.childNodes as ArrayLike<T>).filter((child) => child.nodeType === ELEMENT_NODE);

/** What an element is made as: its tag and its class ("div card"); alike elements are made alike. */
export const makeOf = (node: DomNode) => `${node.localName} ${node.getAttribute?.("class")?.trim() ?? ""}`;

/** The share of an element's text (whitespace aside) that is link text; 1 for an element with none. */
export function linkShareOf(node: ReadNode) {
  const text = (node.textContent ?? "").replace(/\s+/g, "");
  const links = node.querySelectorAll("a");
  let linked = 0;
  for (let i = 0; i < links.length; i++) linked += (links[i].textContent ?? "").replace(/\s+/g, "").length;
  return text.length ? linked / text.length : 1;
}
