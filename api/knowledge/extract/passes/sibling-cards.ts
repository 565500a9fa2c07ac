import { elementChildrenOf, linkShareOf, makeOf, type ReadNode } from "../dom-reading";
import type { DomNode } from "../html-blocks";
import type { PageView, ViewedElement } from "../page-view";
import { MAX_LINK_SHARE_OF_CARD } from "../rules";

/**
 * Cards Readability leaves behind. It picks the best-scoring element, then joins those of its
 * siblings that score well enough on their own. In a row of cards (a contact page's offices, a
 * program's "Requirements", "Tuition" and "Careers" boxes, a team's people) a short card scores
 * less than a long one, so a page keeps two of its three offices and loses the third, with its
 * phone number. A sibling made like the ones it joined (the same element, the same class) is the
 * same kind of content: it is put back beside them, in the page's order. Measured in decision 022.
 */

/** The DOM members this needs (linkedom's elements have them). */
interface CardNode extends ReadNode {
  parentNode: CardNode | null;
  nextSibling: CardNode | null;
  insertBefore(node: CardNode, before: CardNode | null): unknown;
  contains(node: CardNode): boolean;
}

/** A card's make (dom-reading.ts); an element without a class is no card. */
const cardMakeOf = (node: CardNode) => (node.getAttribute?.("class")?.trim() ? makeOf(node) : null);

/** Before Readability runs: every parent of classed elements in `body`, with its element children in order. */
export function rowsOf(view: PageView, body: DomNode): Map<CardNode, CardNode[]> {
  const rows = new Map<CardNode, CardNode[]>();
  const elements = view.below(body as ViewedElement).filter((element) => element.hasAttribute("class"));
  const seen = new Set<CardNode>();
  for (let i = 0; i < elements.length; i++) {
    const parent = elements[i].parentNode as CardNode | null;
    if (!parent || seen.has(parent)) continue;
    seen.add(parent);
    const children = elementChildrenOf(parent);
    // One card is no row.
    if (children.length > 1) rows.set(parent, children);
  }
  return rows;
}

/**
 * After: each row's cards still in the page (Readability neither took nor removed them) that are
 * made like a card it took are moved into the article, after the card before them in the row (or
 * before the first taken one). Returns how many were put back.
 */
export function putBackLeftCards(article: DomNode, rows: Map<CardNode, CardNode[]>) {
  const content = article as CardNode;
  let putBack = 0;
  for (const [row, children] of rows) {
    const taken = children.filter((child) => content.contains(child));
    if (!taken.length || taken.length === children.length) continue;
    const makes = new Set(taken.map(cardMakeOf).filter(Boolean));
    const isTaken = new Set(taken);
    let anchor: CardNode | null = null;
    const before: CardNode[] = [];
    for (const child of children) {
      if (isTaken.has(child)) {
        anchor = child;
        continue;
      }
      const left =
        child.parentNode === row && makes.has(cardMakeOf(child)) && linkShareOf(child) <= MAX_LINK_SHARE_OF_CARD;
      if (!left) continue;
      if (anchor) {
        anchor.parentNode!.insertBefore(child, anchor.nextSibling);
        anchor = child;
      } else {
        before.push(child);
      }
      putBack++;
    }
    for (const child of before) taken[0].parentNode!.insertBefore(child, taken[0]);
  }
  return putBack;
}
