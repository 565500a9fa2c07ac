import { linkShareOf, textOf, type ReadNode } from "./dom-reading";
import { CONTENT_ELEMENTS, CONTENT_ROLE, ELEMENT_NODE } from "./rules";

/** The members of a page's elements the view reads (linkedom's have them). */
export interface ViewedElement extends ReadNode {
  localName: string;
  parentNode: ViewedElement | null;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelectorAll(selector: string): ArrayLike<ViewedElement>;
}

export interface ViewedDocument {
  querySelectorAll(selector: string): ArrayLike<ViewedElement>;
}

const isElement = (node: { nodeType?: number } | null): node is ViewedElement => node?.nodeType === ELEMENT_NODE;

/** An element that holds the page's content: an <article>, a <main>, or one whose role says so. */
const holdsContent = (node: ViewedElement | null) =>
  isElement(node) && (CONTENT_ELEMENTS.has(node.localName) || node.getAttribute("role") === CONTENT_ROLE);

/**
 * One reading of a parsed page, shared by all that read it before Readability changes it: its
 * title, main heading and type (extract-html.ts), its descriptions, rows of cards and boxes of
 * facts (passes/). Each of those used to ask the page for its own elements, a walk of the whole
 * tree apiece (querySelectorAll), and measured the text of the same elements again; the view
 * walks the tree once, when first asked, answers each question from that one list in the same
 * order, and measures an element's text once. It reads the page as it stands: nothing may change
 * the tree while it is asked (the passes' marks are attributes; Readability comes after).
 */
export class PageView {
  private all: ViewedElement[] | null = null;
  private content: Set<ViewedElement> | null = null;
  private readonly texts = new WeakMap<ViewedElement, string>();
  private readonly linkShares = new WeakMap<ViewedElement, number>();

  constructor(private readonly document: ViewedDocument) {}

  /** Every element of the page, in document order. */
  get elements(): ViewedElement[] {
    return (this.all ??= Array.from(this.document.querySelectorAll("*")));
  }

  /** The first element of this name, as `querySelector(name)` finds it. */
  first(name: string) {
    return this.elements.find((element) => element.localName === name) ?? null;
  }

  /** The elements of this name, in document order. */
  named(name: string) {
    return this.elements.filter((element) => element.localName === name);
  }

  /** The elements inside `root` (below it, not itself), in document order: they follow it in one run. */
  below(root: ViewedElement): ViewedElement[] {
    const all = this.elements;
    const at = all.indexOf(root);
    if (at === -1) return Array.from(root.querySelectorAll("*"));
    const inside = new Set([root]);
    const found: ViewedElement[] = [];
    for (let i = at + 1; i < all.length && all[i].parentNode && inside.has(all[i].parentNode!); i++) {
      inside.add(all[i]);
      found.push(all[i]);
    }
    return found;
  }

  /** Whether an element stands inside the page's content (an <article>, a <main>, [role=main]; not itself). */
  inContent(element: ViewedElement) {
    if (!this.content) {
      // Parents come before their children: one pass in document order settles every element.
      const content = new Set<ViewedElement>();
      for (const each of this.elements) {
        const parent = each.parentNode;
        if (parent && (content.has(parent) || holdsContent(parent))) content.add(each);
      }
      this.content = content;
    }
    return this.content.has(element);
  }

  /** An element's text, its whitespace runs single spaces (dom-reading.ts), measured once. */
  textOf(element: ViewedElement) {
    let text = this.texts.get(element);
    if (text === undefined) this.texts.set(element, (text = textOf(element)));
    return text;
  }

  /** The share of an element's text that is link text (dom-reading.ts), measured once. */
  linkShareOf(element: ViewedElement) {
    let share = this.linkShares.get(element);
    if (share === undefined) this.linkShares.set(element, (share = linkShareOf(element)));
    return share;
  }
}
