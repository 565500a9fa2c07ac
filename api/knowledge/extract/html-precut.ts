import { Parser } from "htmlparser2";
import { parseHTML } from "linkedom";
import {
  CONTENT_ELEMENTS,
  CONTENT_ROLE,
  CUT_WHILE_PARSING,
  ELEMENT_NODE,
  FURNITURE_ELEMENTS,
  FURNITURE_ROLES,
  HEADING,
  HEADING_LEVEL,
  KEPT_WHOLE,
  NAVIGATION_ROLES,
  TEXT_NODE,
} from "./rules";

/**
 * One streaming pass over the raw markup builds the page's DOM (linkedom's), leaving out what is
 * never article text: scripts, styles, forms' controls, hidden nodes, and the site's navigation,
 * banner, footer and side columns outside the article. On our generated 24 KB pages this removes
 * most of the nodes, and Readability's passes cost in proportion to the nodes (see
 * docs/decisions/017). Building the tree in the same pass, rather than writing the kept markup out
 * and letting linkedom tokenize it again, saves a third of the parsing.
 */

const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);
/** Cookie and consent banners: Readability keeps them on short pages, where it reads the whole body. */
const CONSENT_BANNER =
  /(^|[\s_-])(cookies?[-_]?(banner|bar|notice|consent|popup|modal|law|message|box|wrapper|container|notification)|consent|gdpr)([\s_-]|$)/i;
/** Fields of sign-up and search boxes: an e-mail address (typed as one, or a text field named for it) or a search. */
const BOX_FIELD_TYPES = new Set(["email", "search"]);
const MAIL_NAME = /mail/i;
function isBoxField(attribs: Record<string, string>) {
  const type = (attribs.type ?? "text").toLowerCase();
  return BOX_FIELD_TYPES.has(type) || (type === "text" && MAIL_NAME.test(`${attribs.name ?? ""} ${attribs.id ?? ""}`));
}
/**
 * A sign-up or search box is the largest element around such a field holding at most this many
 * characters of text (a heading, a line of pitch, a consent line); the article around it holds more.
 */
const BOX_MAX_CHARS = 400;
const HIDING_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

type HtmlDocument = ReturnType<typeof parseHTML>["document"];
/** The few members of linkedom's nodes the build uses. */
interface BuiltNode {
  nodeType: number;
  nodeValue: string | null;
  localName?: string;
  parentNode: BuiltNode | null;
  firstChild: BuiltNode | null;
  lastChild: BuiltNode | null;
  childNodes: ArrayLike<BuiltNode>;
  appendChild(child: BuiltNode): unknown;
  insertBefore(child: BuiltNode, before: BuiltNode | null): unknown;
  removeChild(child: BuiltNode): unknown;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
}

/** What a browser moves into <head> when the page puts it elsewhere before <body>. */
const HEAD_CONTENT = new Set(["title", "meta", "link", "style", "base"]);

/** Anything but an element or text that shows: blank text, the doctype. */
const isBlank = (node: BuiltNode) =>
  node.nodeType !== ELEMENT_NODE && (node.nodeType !== TEXT_NODE || !/\S/.test(node.nodeValue ?? ""));

/** <html> holding <head> then <body> and nothing else but blank text. */
function isSkeleton(html: BuiltNode) {
  const elements = Array.from(html.childNodes).filter((n) => !isBlank(n));
  return elements.length === 2 && elements[0].localName === "head" && elements[1].localName === "body";
}

const textLength = (node: BuiltNode) =>
  visibleLength((node as unknown as { textContent: string | null }).textContent ?? "");

/**
 * Takes out the box around each e-mail or search field: newsletter sign-ups and search forms sit
 * inside articles' containers, where Readability keeps their text (it drops only the controls).
 * The box is found by size, not by its words: the outermost element around the field with little
 * text, short of the body, an <article> or <main>.
 */
function removeFieldBoxes(fields: BuiltNode[]) {
  for (const field of fields) {
    let box: BuiltNode | null = null;
    for (let node = field.parentNode; node?.localName && !KEPT_WHOLE.has(node.localName); node = node.parentNode) {
      if (textLength(node) > BOX_MAX_CHARS) break;
      box = node;
    }
    box?.parentNode?.removeChild(box);
  }
}

/**
 * Puts the tree in the shape a browser's parser gives every page: one <html> holding <head> then
 * <body>. Pages that put a <style> or <title> before <html>, or leave out <html>, <head> or <body>,
 * are built as written, and linkedom finds the body only as the <html>'s second child: such a page
 * used to be read as having no body at all. What stood outside goes where a browser puts it:
 * metadata into the head, anything else into the body, in order.
 */
function repairSkeleton(document: BuiltNode, create: (name: string) => BuiltNode) {
  const top = Array.from(document.childNodes);
  let html = top.find((n) => n.localName === "html") ?? null;
  if (html && isSkeleton(html) && top.every((n) => n === html || isBlank(n))) return;
  if (!html) {
    html = create("html");
    document.appendChild(html);
  }
  let head: BuiltNode | null = null;
  let body: BuiltNode | null = null;
  for (const child of Array.from(html.childNodes)) {
    if (child.localName === "head" && !head) head = child;
    else if (child.localName === "body" && !body) body = child;
  }
  head ??= create("head");
  body ??= create("body");
  // Everything outside <head> and <body>, in document order: the document's other nodes around
  // <html>, and <html>'s own other children.
  const before: BuiltNode[] = [];
  const after: BuiltNode[] = [];
  let seenBody = false;
  const sort = (n: BuiltNode) => {
    if (n === head || n === body) {
      if (n === body) seenBody = true;
      return;
    }
    (seenBody ? after : before).push(n);
  };
  for (const n of top) {
    if (n === html) Array.from(html.childNodes).forEach(sort);
    else sort(n);
  }
  const firstOfBody = body.firstChild;
  for (const n of before) {
    if (isBlank(n)) continue;
    if (HEAD_CONTENT.has(n.localName ?? "")) head.appendChild(n);
    else body.insertBefore(n, firstOfBody);
  }
  for (const n of after) if (!isBlank(n)) body.appendChild(n);
  // linkedom finds the body only as the element right after the head, the head as the first.
  if (html.firstChild !== head) html.insertBefore(head, html.firstChild);
  const afterHead = (head as unknown as { nextSibling: BuiltNode | null }).nextSibling;
  if (afterHead !== body) html.insertBefore(body, afterHead);
}

/**
 * How deep elements nest in the built tree. No element is built deeper: the text of those opened
 * past the limit goes into the deepest one built, a space apart, in order. A browser's parser
 * also stops nesting past a limit of its own (Blink's is 512). Readability's passes cost the cube
 * of the depth on a page nested element in element (each container weighs the text of all it
 * holds, for each tag), so a 30 KB page of 3,000 nested <div>s took 100 s to read, and the block
 * walk recurses once a level. Real pages nest 15 deep at the median and 37 at the most among the
 * 372 of the development sets.
 */
export const MAX_NESTING = 128;
/**
 * Open tags at which the page stops being read. The HTML parser (htmlparser2) keeps its open tags
 * in an array it adds to and takes from at the front, so each tag costs in proportion to how many
 * are open: 450,000 nested <div>s (a 5 MB page) took 67 s to parse. What follows the point where
 * this many tags are open is left out.
 */
export const MAX_OPEN_TAGS = 1024;

/** A header, footer or aside outside the article, being built: taken out when it closes unless it holds the article. */
interface Furniture {
  /** Null while the furniture is read without being built (see `precutDocument`). */
  element: BuiltNode | null;
  visibleCharsBefore: number;
  holdsContent: boolean;
}

export interface PrecutPage {
  /** The page's tree without the cut elements (linkedom's document). */
  document: HtmlDocument;
  /** Characters of visible body text kept (whitespace runs counted once). */
  visibleChars: number;
  /**
   * What the page says it is in schema.org's words, lower case ("product", "newsarticle"): the
   * types of its JSON-LD's top-level items (`@graph`'s too) and of its top-level microdata items.
   */
  declaredTypes: Set<string>;
  /** Elements built. */
  elements: number;
  /**
   * The visible characters weighed by the square of their depth in the tree: what Readability's
   * reading of nested containers costs in proportion to (extract-html.ts).
   */
  nestedTextWeight: number;
}

const STRUCTURED_DATA = /^application\/ld\+json$/i;
/**
 * A JSON-LD block longer than this is not read for the page's type: a product's or an article's
 * is a few kilobytes, and parsing is paid for in full whatever a page sends.
 */
const MAX_STRUCTURED_DATA_CHARS = 256 * 1024;

/** A schema.org type as its last path segment, lower case: "http://schema.org/Product" and "Product" give "product". */
const typeName = (type: string) => type.trim().split("/").pop()!.toLowerCase();

/** The `@type`s of a JSON-LD block's top-level items (and of its `@graph`'s); none when it is not JSON. */
function jsonLdTypes(text: string): string[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  const items = (Array.isArray(data) ? data : [data]).flatMap((item) => {
    const graph = (item as { "@graph"?: unknown } | null)?.["@graph"];
    return Array.isArray(graph) ? [item, ...graph] : [item];
  });
  return items.flatMap((item) => {
    const type = (item as { "@type"?: unknown } | null)?.["@type"];
    return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === "string").map(typeName);
  });
}

/**
 * A control that shows and hides a part of the page: WAI-ARIA's disclosure and accordion patterns
 * mark its state with `aria-expanded`, a set of tabs each tab with its role. What it names in
 * `aria-controls` is the page's text, hidden until asked for.
 */
const showsAndHides = (attribs: Record<string, string>) => "aria-expanded" in attribs || attribs.role === "tab";
/**
 * A disclosure's button (`aria-expanded`; the accordion pattern sets it in a heading): its label
 * names the part it opens ("What are the admission requirements?" over its answer), so it is text,
 * where any other button's label ("Share", "Preview the theme", a recipe's "2x") is not.
 */
const isDisclosureButton = (attribs: Record<string, string>) => "aria-expanded" in attribs;
/** What Readability reads an element's part in the page from. */
const NAMING_ATTRIBUTES = ["class", "id"];

function isHiddenTag(attribs: Record<string, string>) {
  if ("hidden" in attribs || attribs["aria-hidden"] === "true") return true;
  return attribs.style !== undefined && HIDING_STYLE.test(attribs.style);
}

/** JavaScript's \s, one character code at a time; printable ASCII, most of any text, is decided first. */
const isSpace = (code: number) =>
  code > 32 && code < 127
    ? false
    : code === 32 ||
      (code >= 9 && code <= 13) ||
      code === 160 ||
      code === 0x2028 ||
      code === 0x2029 ||
      code === 0x3000 ||
      (code >= 0x2000 && code <= 0x200a) ||
      code === 0xfeff ||
      code === 0x1680 ||
      code === 0x202f ||
      code === 0x205f;

/** The length of `text` once trimmed and its whitespace runs made single spaces, without building that string. */
export function visibleLength(text: string) {
  let length = 0;
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) {
      pendingSpace = length > 0;
    } else {
      length += pendingSpace ? 2 : 1;
      pendingSpace = false;
    }
  }
  return length;
}

/**
 * Page furniture outside the article (a header, a footer, a side column) is read without building
 * it: on our generated pages it is half of the elements, and linkedom's nodes cost most of the
 * pass. Only a page that never closes its furniture and holds its article inside it keeps any (an
 * unclosed <header> holds everything after it), and that is known only at its end: such a page is
 * read again with its furniture built. Both ways give the same tree, counts and types
 * (`buildFurniture` builds it from the start: what html-precut.test.ts compares the other way with).
 */
export function precutDocument(html: string, { buildFurniture = false } = {}): PrecutPage {
  return precutPass(html, buildFurniture) ?? precutPass(html, true)!;
}

/** One pass of the pre-cut; null when furniture it did not build turned out to be kept. */
function precutPass(html: string, buildFurniture: boolean): PrecutPage | null {
  // An empty string gives a document with no nodes at all, which the pass fills.
  const { document } = parseHTML("");
  let node = document as unknown as BuiltNode;
  let visibleChars = 0;
  let skipDepth = 0; // > 0 while inside a cut element: counts open tags below it
  let contentDepth = 0; // open <article>/<main> elements around the current node
  let inBody = false;
  let elements = 0;
  let nestedTextWeight = 0;
  // Per open element: whether it is an article or main, and, for page furniture (a header, footer
  // or aside outside the article), what is needed to take it out again when it closes.
  // Each also remembers the node the build returns to when it closes: its parent, or, for an
  // element past MAX_NESTING that was not built, the deepest element built.
  // Each notes too whether it is a heading inside furniture that was not built.
  const opened: { content: boolean; furniture: Furniture | null; returnTo: BuiltNode; unbuiltHeading: boolean }[] = [];
  // The furniture elements open around the current node, innermost last.
  const furniture: Furniture[] = [];
  // E-mail and search fields, whose boxes are taken out once the tree is built.
  const fields: BuiltNode[] = [];
  const declaredTypes = new Set<string>();
  // The text of the JSON-LD block being read (it is cut from the tree like every script), or null.
  let structuredData: string | null = null;
  // The ids of the parts of the page that a control shows and hides (showsAndHides): an
  // accordion's answers and a set of tabs' panels, hidden until asked for, are the page's text.
  const shownOnRequest = new Set<string>();
  // The outermost furniture read without being built, while inside it; and headings open inside
  // it, which would have been the nearest heading around a disclosure's label.
  let unbuilt: Furniture | null = null;
  let unbuiltHeadingsOpen = 0;
  let keptUnbuilt = false;
  const headingAround = () => {
    for (let at: BuiltNode | null = node; at?.localName; at = at.parentNode) if (HEADING.test(at.localName)) return at;
    return null;
  };

  const parser = new Parser(
    {
      onprocessinginstruction(name, data) {
        if (name.toLowerCase() === "!doctype")
          (document as unknown as { doctype: string }).doctype = data.slice(name.length).trim();
      },
      onopentag(name, attribs) {
        if (opened.length + skipDepth >= MAX_OPEN_TAGS) {
          parser.pause();
          return;
        }
        if (skipDepth) {
          if (!VOID.has(name)) skipDepth++;
          return;
        }
        const role = attribs.role ?? "";
        if (showsAndHides(attribs))
          for (const id of (attribs["aria-controls"] ?? "").split(/\s+/)) if (id) shownOnRequest.add(id);
        const label = name === "button" && isDisclosureButton(attribs);
        // An accordion's question is a heading whatever it is named: Readability takes a heading
        // named like a page's header ("accordion-header") for one and drops it.
        const heading = label && !(unbuilt && unbuiltHeadingsOpen) ? headingAround() : null;
        if (heading) for (const attribute of NAMING_ATTRIBUTES) heading.removeAttribute(attribute);
        const hidden = isHiddenTag(attribs) && !(attribs.id && shownOnRequest.has(attribs.id));
        // An element in a button's role is one, whatever its tag ("Show picture", "Share", "Load post").
        const control = role === "button" && !isDisclosureButton(attribs);
        const cut =
          (CUT_WHILE_PARSING.has(name) && !label) ||
          control ||
          NAVIGATION_ROLES.has(role) ||
          hidden ||
          CONSENT_BANNER.test(`${attribs.class ?? ""} ${attribs.id ?? ""}`);
        if (cut) {
          if (!VOID.has(name)) skipDepth = 1;
          if (name === "script" && STRUCTURED_DATA.test(attribs.type ?? "")) structuredData = "";
          return;
        }
        // A microdata item that is nobody's property is what the page is (or one of its parts).
        if ("itemscope" in attribs && !("itemprop" in attribs))
          for (const type of (attribs.itemtype ?? "").split(/\s+/)) if (type) declaredTypes.add(typeName(type));
        if (name === "body") inBody = true;
        if (opened.length >= MAX_NESTING) {
          // Too deep to build: its text goes into the deepest element built, a space apart from the text before.
          const last = node.lastChild;
          if (!unbuilt && last && !(last.nodeType === TEXT_NODE && /\s$/.test(last.nodeValue ?? "")))
            node.appendChild(document.createTextNode(" ") as unknown as BuiltNode);
          if (!VOID.has(name)) opened.push({ content: false, furniture: null, returnTo: node, unbuiltHeading: false });
          return;
        }
        // Furniture is taken out when it closes, unless the page never closed it and the article
        // turned out to be inside: an unclosed <header> holds everything after it, in a browser as
        // here. A header the page closes itself is furniture, whatever it holds.
        const isFurniture =
          !VOID.has(name) && contentDepth === 0 && (FURNITURE_ELEMENTS.has(name) || FURNITURE_ROLES.has(role));
        const builds = !unbuilt && (buildFurniture || !isFurniture);
        // A disclosure's label is built as plain inline text: its words, not a control.
        const tag = label ? "span" : name;
        let element: BuiltNode | null = null;
        if (builds) {
          element = document.createElement(tag) as unknown as BuiltNode;
          // Readability turns every <h1> into an <h2>; the mark keeps the page's outline for heading paths.
          if (name === "h1") element.setAttribute(HEADING_LEVEL, "1");
          for (const key in attribs) element.setAttribute(key, attribs[key]);
          if (name === "input" && isBoxField(attribs)) fields.push(element);
          node.appendChild(element);
        }
        elements++;
        if (!VOID.has(name)) {
          const returnTo = node;
          if (element) node = element;
          const content = CONTENT_ELEMENTS.has(name) || role === CONTENT_ROLE;
          const held = isFurniture ? { element, visibleCharsBefore: visibleChars, holdsContent: false } : null;
          if (held) furniture.push(held);
          if (held && !builds && !unbuilt) unbuilt = held;
          const unbuiltHeading = !builds && HEADING.test(tag);
          if (unbuiltHeading) unbuiltHeadingsOpen++;
          if (content) for (const around of furniture) around.holdsContent = true;
          opened.push({ content, furniture: held, returnTo, unbuiltHeading });
          if (content) contentDepth++;
        }
      },
      ontext(text) {
        if (skipDepth) {
          if (structuredData !== null && structuredData.length <= MAX_STRUCTURED_DATA_CHARS) structuredData += text;
          return;
        }
        if (!unbuilt) node.appendChild(document.createTextNode(text) as unknown as BuiltNode);
        if (inBody) {
          const visible = visibleLength(text);
          visibleChars += visible;
          nestedTextWeight += visible * opened.length * opened.length;
        }
      },
      onclosetag(name, implied) {
        if (VOID.has(name)) return;
        if (skipDepth) {
          skipDepth--;
          if (!skipDepth && structuredData !== null) {
            if (structuredData.length <= MAX_STRUCTURED_DATA_CHARS)
              for (const type of jsonLdTypes(structuredData)) declaredTypes.add(type);
            structuredData = null;
          }
          return;
        }
        const closed = opened.pop();
        if (closed?.content) contentDepth--;
        if (closed?.unbuiltHeading) unbuiltHeadingsOpen--;
        if (closed?.furniture) {
          furniture.pop();
          const kept = closed.furniture.holdsContent && implied;
          if (!kept) {
            closed.furniture.element?.parentNode?.removeChild(closed.furniture.element);
            visibleChars = closed.furniture.visibleCharsBefore;
          }
          if (closed.furniture === unbuilt) {
            unbuilt = null;
            if (kept) keptUnbuilt = true;
          }
        }
        node = closed?.returnTo ?? node.parentNode ?? node;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  if (keptUnbuilt) return null;
  repairSkeleton(document as unknown as BuiltNode, (name) => document.createElement(name) as unknown as BuiltNode);
  removeFieldBoxes(fields);
  return { document, visibleChars, declaredTypes, elements, nestedTextWeight };
}
