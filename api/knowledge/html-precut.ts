import { Parser } from "htmlparser2";

/**
 * One streaming pass over the raw markup that leaves out what is never article text before the
 * page is built into a DOM: scripts, styles, forms' controls, hidden nodes, and the site's
 * navigation, banner, footer and side columns outside the article. On our generated 24 KB pages
 * this removes most of the nodes, and the DOM build and Readability's passes cost in proportion
 * to the nodes (see docs/decisions/017).
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

export interface PrecutPage {
  /** The markup without the cut elements. */
  html: string;
  /** Characters of visible body text kept (whitespace runs counted once). */
  visibleChars: number;
}

function isHiddenTag(attribs: Record<string, string>) {
  if ("hidden" in attribs || attribs["aria-hidden"] === "true") return true;
  return attribs.style !== undefined && HIDING_STYLE.test(attribs.style);
}

const escapeAttribute = (value: string) => value.replace(/"/g, "&quot;");

export function precutHtml(html: string): PrecutPage {
  const out: string[] = [];
  let visibleChars = 0;
  let skipDepth = 0; // > 0 while inside a cut element: counts open tags below it
  let contentDepth = 0; // open <article>/<main> elements around the current node
  let inBody = false;
  const opened: boolean[] = []; // per open element: is it an article or main?

  const parser = new Parser({
    onprocessinginstruction(_name, data) {
      if (!skipDepth) out.push(`<${data}>`);
    },
    onopentag(name, attribs) {
      if (skipDepth) {
        if (!VOID.has(name)) skipDepth++;
        return;
      }
      const role = attribs.role ?? "";
      const cut = SILENT.has(name) || SILENT_ROLES.has(role) || isHiddenTag(attribs) || CONSENT_BANNER.test(`${attribs.class ?? ""} ${attribs.id ?? ""}`)
        || (contentDepth === 0 && (FURNITURE.has(name) || FURNITURE_ROLES.has(role)));
      if (cut) {
        if (!VOID.has(name)) skipDepth = 1;
        return;
      }
      if (name === "body") inBody = true;
      // Readability turns every <h1> into an <h2>; the mark keeps the page's outline for heading paths.
      let tag = name === "h1" ? `<h1 ${HEADING_LEVEL}="1"` : `<${name}`;
      for (const [key, value] of Object.entries(attribs)) tag += value === "" ? ` ${key}` : ` ${key}="${escapeAttribute(value)}"`;
      out.push(`${tag}>`);
      if (!VOID.has(name)) {
        const content = CONTENT.has(name) || role === "main";
        opened.push(content);
        if (content) contentDepth++;
      }
    },
    ontext(text) {
      if (skipDepth) return;
      out.push(text);
      if (inBody) visibleChars += text.replace(/\s+/g, " ").trim().length;
    },
    onclosetag(name) {
      if (VOID.has(name)) return;
      if (skipDepth) {
        skipDepth--;
        return;
      }
      if (opened.pop()) contentDepth--;
      out.push(`</${name}>`);
    },
  }, { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.end(html);
  return { html: out.join(""), visibleChars };
}
