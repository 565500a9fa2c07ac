import { Parser } from "htmlparser2";
import { parseHTML } from "linkedom";

/**
 * One streaming pass over the raw markup builds the page's DOM (linkedom's), leaving out what is
 * never article text: scripts, styles, forms' controls, hidden nodes, and the site's navigation,
 * banner, footer and side columns outside the article. On our generated 24 KB pages this removes
 * most of the nodes, and Readability's passes cost in proportion to the nodes (see
 * docs/decisions/017). Building the tree in the same pass, rather than writing the kept markup out
 * and letting linkedom tokenize it again, saves a third of the parsing.
 */

/** Never text, wherever they are. */
const SILENT = new Set(["script", "style", "noscript", "template", "svg", "iframe", "object", "embed", "canvas", "select", "button", "textarea", "dialog", "nav"]);
/** Page furniture when outside an <article> or <main> (an article may have its own header and footer). */
const FURNITURE = new Set(["header", "footer", "aside"]);
const SILENT_ROLES = new Set(["navigation", "search", "dialog", "alertdialog", "menu", "menubar"]);
const FURNITURE_ROLES = new Set(["banner", "contentinfo", "complementary"]);
const CONTENT = new Set(["article", "main"]);
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);
/** Cookie and consent banners: Readability keeps them on short pages, where it reads the whole body. */
const CONSENT_BANNER = /(^|[\s_-])(cookies?[-_]?(banner|bar|notice|consent|popup|modal|law|message|box|wrapper|container|notification)|consent|gdpr)([\s_-]|$)/i;
const HIDING_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/** The attribute that carries a heading's level through the extractor. */
export const HEADING_LEVEL = "data-heading-level";

type HtmlDocument = ReturnType<typeof parseHTML>["document"];
/** The few members of linkedom's nodes the build uses. */
interface BuiltNode {
  parentNode: BuiltNode | null;
  appendChild(child: BuiltNode): unknown;
  removeChild(child: BuiltNode): unknown;
  setAttribute(name: string, value: string): void;
}

/** A header, footer or aside outside the article, being built: taken out when it closes unless it holds the article. */
interface Furniture { element: BuiltNode; visibleCharsBefore: number; holdsContent: boolean }

export interface PrecutPage {
  /** The page's tree without the cut elements (linkedom's document). */
  document: HtmlDocument;
  /** Characters of visible body text kept (whitespace runs counted once). */
  visibleChars: number;
}

function isHiddenTag(attribs: Record<string, string>) {
  if ("hidden" in attribs || attribs["aria-hidden"] === "true") return true;
  return attribs.style !== undefined && HIDING_STYLE.test(attribs.style);
}

/** JavaScript's \s, one character code at a time; printable ASCII, most of any text, is decided first. */
const isSpace = (code: number) => (code > 32 && code < 127 ? false
  : code === 32 || (code >= 9 && code <= 13) || code === 160 || code === 0x2028 || code === 0x2029 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a) || code === 0xfeff || code === 0x1680 || code === 0x202f || code === 0x205f);

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

export function precutDocument(html: string): PrecutPage {
  // An empty string gives a document with no nodes at all, which the pass fills.
  const { document } = parseHTML("");
  let node = document as unknown as BuiltNode;
  let visibleChars = 0;
  let skipDepth = 0; // > 0 while inside a cut element: counts open tags below it
  let contentDepth = 0; // open <article>/<main> elements around the current node
  let inBody = false;
  // Per open element: whether it is an article or main, and, for page furniture (a header, footer
  // or aside outside the article), what is needed to take it out again when it closes.
  const opened: { content: boolean; furniture: Furniture | null }[] = [];
  // The furniture elements open around the current node, innermost last.
  const furniture: Furniture[] = [];

  const parser = new Parser({
    onprocessinginstruction(name, data) {
      if (name.toLowerCase() === "!doctype") (document as unknown as { doctype: string }).doctype = data.slice(name.length).trim();
    },
    onopentag(name, attribs) {
      if (skipDepth) {
        if (!VOID.has(name)) skipDepth++;
        return;
      }
      const role = attribs.role ?? "";
      const cut = SILENT.has(name) || SILENT_ROLES.has(role) || isHiddenTag(attribs) || CONSENT_BANNER.test(`${attribs.class ?? ""} ${attribs.id ?? ""}`);
      if (cut) {
        if (!VOID.has(name)) skipDepth = 1;
        return;
      }
      if (name === "body") inBody = true;
      const element = document.createElement(name) as unknown as BuiltNode;
      // Readability turns every <h1> into an <h2>; the mark keeps the page's outline for heading paths.
      if (name === "h1") element.setAttribute(HEADING_LEVEL, "1");
      for (const key in attribs) element.setAttribute(key, attribs[key]);
      node.appendChild(element);
      if (!VOID.has(name)) {
        node = element;
        const content = CONTENT.has(name) || role === "main";
        // Furniture is built, then taken out when it closes, unless the page never closed it and
        // the article turned out to be inside: an unclosed <header> holds everything after it, in
        // a browser as here. A header the page closes itself is furniture, whatever it holds.
        const isFurniture = contentDepth === 0 && (FURNITURE.has(name) || FURNITURE_ROLES.has(role));
        const held = isFurniture ? { element, visibleCharsBefore: visibleChars, holdsContent: false } : null;
        if (held) furniture.push(held);
        if (content) for (const around of furniture) around.holdsContent = true;
        opened.push({ content, furniture: held });
        if (content) contentDepth++;
      }
    },
    ontext(text) {
      if (skipDepth) return;
      node.appendChild(document.createTextNode(text) as unknown as BuiltNode);
      if (inBody) visibleChars += visibleLength(text);
    },
    onclosetag(name, implied) {
      if (VOID.has(name)) return;
      if (skipDepth) {
        skipDepth--;
        return;
      }
      const closed = opened.pop();
      if (closed?.content) contentDepth--;
      const parent = node.parentNode ?? node;
      if (closed?.furniture) {
        furniture.pop();
        if (!(closed.furniture.holdsContent && implied)) {
          parent.removeChild(closed.furniture.element);
          visibleChars = closed.furniture.visibleCharsBefore;
        }
      }
      node = parent;
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.end(html);
  return { document, visibleChars };
}
