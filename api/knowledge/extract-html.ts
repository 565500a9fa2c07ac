import type { AnyNode, Element } from "domhandler";
import { isTag, isText } from "domhandler";
import { parseDocument } from "htmlparser2";

export interface Block {
  kind: "heading" | "text";
  /** 1–6 for headings. */
  level?: number;
  text: string;
}

export interface ExtractedPage {
  title: string;
  blocks: Block[];
  /** The main text, blocks separated by blank lines. */
  text: string;
}

/** Never content, wherever they are. */
const DROP_TAGS = new Set([
  "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed", "form", "button", "input",
  "select", "textarea", "nav", "aside", "dialog", "menu", "head", "link", "meta", "video", "audio", "map",
]);
/** Page furniture when outside the main content (an article may have its own header). */
const FURNITURE_TAGS = new Set(["header", "footer"]);
const DROP_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "dialog", "alertdialog", "search", "menu", "menubar"]);
/** Class or id words of boilerplate: cookie banners, share bars, comments, sidebars, promos. */
const BOILERPLATE = /(^|[\s_-])(cookie|consent|gdpr|share|sharing|social|comments?|sidebar|breadcrumbs?|newsletter|subscribe|promo|advert|ads|sponsor|related|recommend|popup|modal|footer|masthead|menu|navbar|nav|skip-link|toolbar|signup|paywall|disqus)([\s_-]|$)/i;
const BLOCK_TAGS = new Set(["p", "li", "pre", "blockquote", "td", "th", "dd", "dt", "figcaption", "caption", "summary"]);
const HEADING = /^h([1-6])$/;

const attr = (el: Element, name: string) => el.attribs?.[name] ?? "";
const normalise = (text: string) => text.replace(/\s+/g, " ").trim();

function textOf(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (isTag(node)) {
    if (node.name === "br") return "\n";
    const inner = node.children.map(textOf).join("");
    // Blocks are separated from their neighbours; inline elements run on with the text around them.
    return isBlockish(node) ? ` ${inner} ` : inner;
  }
  return "";
}
const isBlockish = (el: Element) => BLOCK_TAGS.has(el.name) || HEADING.test(el.name) || ["div", "section", "article", "ul", "ol", "table", "tr"].includes(el.name);

function isBoilerplate(el: Element, insideMain: boolean) {
  if (DROP_TAGS.has(el.name)) return true;
  if (!insideMain && FURNITURE_TAGS.has(el.name)) return true;
  if (attr(el, "hidden") !== "" || "hidden" in (el.attribs ?? {}) || attr(el, "aria-hidden") === "true") return true;
  if (DROP_ROLES.has(attr(el, "role"))) return true;
  if (el.name === "body" || el.name === "main" || el.name === "article") return false;
  const label = `${attr(el, "class")} ${attr(el, "id")}`;
  return BOILERPLATE.test(label);
}

/** Removes boilerplate subtrees in place. */
function prune(node: AnyNode, insideMain = false) {
  if (!isTag(node) && node.type !== "root") return;
  const children = (node as Element).children;
  for (let i = children.length - 1; i >= 0; i--) {
    const child = children[i];
    if (child.type === "comment" || child.type === "directive") {
      children.splice(i, 1);
      continue;
    }
    if (!isTag(child)) continue;
    if (isBoilerplate(child, insideMain)) children.splice(i, 1);
    else prune(child, insideMain || child.name === "main" || child.name === "article" || attr(child, "role") === "main");
  }
}

function findAll(node: AnyNode, test: (el: Element) => boolean, found: Element[] = []): Element[] {
  if (isTag(node) && test(node)) found.push(node);
  if (isTag(node) || node.type === "root") for (const child of (node as Element).children) findAll(child, test, found);
  return found;
}

/** Paragraph text that is not link text: what readers read, not what they click. */
function contentScore(el: Element) {
  let score = 0;
  for (const p of findAll(el, (e) => e.name === "p" || e.name === "pre" || e.name === "li")) {
    const text = normalise(textOf(p)).length;
    const links = findAll(p, (e) => e.name === "a").reduce((sum, a) => sum + normalise(textOf(a)).length, 0);
    score += Math.max(0, text - links * 1.5);
  }
  return score;
}

/**
 * The element holding the main content: the richest <article>, else <main> / role=main, else the
 * container whose paragraphs carry the most non-link text (with a bit of its parent's context).
 */
function mainRoot(root: AnyNode): AnyNode {
  const articles = findAll(root, (e) => e.name === "article");
  if (articles.length) {
    const best = articles.map((a) => ({ a, score: contentScore(a) })).sort((x, y) => y.score - x.score)[0];
    if (best.score > 200) return best.a;
  }
  const main = findAll(root, (e) => e.name === "main" || attr(e, "role") === "main")[0];
  if (main && contentScore(main) > 200) return main;
  const candidates = findAll(root, (e) => ["div", "section", "td", "body"].includes(e.name));
  let best: Element | null = null;
  let bestScore = 0;
  for (const candidate of candidates) {
    // Direct paragraph children count fully; deeper ones are credited to their own container.
    const direct = candidate.children.filter((c): c is Element => isTag(c) && ["p", "pre", "ul", "ol", "blockquote", "h2", "h3"].includes(c.name));
    const score = direct.reduce((sum, c) => sum + contentScore(c) + (c.name.startsWith("h") ? 20 : 0), 0);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  if (!best) return root;
  // Climb through plain wrappers (about the same content) and into parents that gather content
  // split over sibling containers (clearly more); stop where a parent adds only a little, which
  // is usually furniture around the article.
  let chosen: Element = best;
  let chosenScore = contentScore(chosen);
  while (chosen.parent && isTag(chosen.parent)) {
    const parentScore = contentScore(chosen.parent);
    if (parentScore > chosenScore * 1.05 && parentScore < chosenScore * 1.3) break;
    chosen = chosen.parent;
    chosenScore = parentScore;
  }
  return chosen;
}

function collectBlocks(node: AnyNode, blocks: Block[]) {
  if (!isTag(node) && node.type !== "root") return;
  for (const child of (node as Element).children) {
    if (isText(child)) {
      const text = normalise(child.data);
      if (text) appendText(blocks, text);
      continue;
    }
    if (!isTag(child)) continue;
    const heading = HEADING.exec(child.name);
    if (heading) {
      const text = normalise(textOf(child));
      if (text) blocks.push({ kind: "heading", level: Number(heading[1]), text });
    } else if (BLOCK_TAGS.has(child.name) && !findAll(child, (e) => e !== child && (BLOCK_TAGS.has(e.name) || HEADING.test(e.name))).length) {
      const text = child.name === "pre" ? textOf(child).trim() : normalise(textOf(child));
      if (text) blocks.push({ kind: "text", text });
    } else if (["a", "span", "strong", "em", "b", "i", "code", "small", "sup", "sub", "abbr", "time", "mark", "q", "cite"].includes(child.name)) {
      const text = normalise(textOf(child));
      if (text) appendText(blocks, text);
    } else {
      blocks.push({ kind: "text", text: "" }); // a block boundary
      collectBlocks(child, blocks);
    }
  }
}

/** Inline text continues the open paragraph, or starts one. */
function appendText(blocks: Block[], text: string) {
  const last = blocks[blocks.length - 1];
  if (last && last.kind === "text") last.text = last.text ? `${last.text} ${text}` : text;
  else blocks.push({ kind: "text", text });
}

export interface CleanupRules {
  /** CSS-like selectors kept simple: tag, .class, #id (AI Finetuning "Clean up HTML Tags"). */
  removeSelectors?: string[];
}

function matchesSimpleSelector(el: Element, selector: string) {
  if (selector.startsWith(".")) return attr(el, "class").split(/\s+/).includes(selector.slice(1));
  if (selector.startsWith("#")) return attr(el, "id") === selector.slice(1);
  return el.name === selector.toLowerCase();
}

/** The title and main text of an HTML page, without navigation, footers, scripts and banners. */
export function extractHtml(html: string, rules: CleanupRules = {}): ExtractedPage {
  const document = parseDocument(html, { decodeEntities: true });
  const titleEl = findAll(document, (e) => e.name === "title")[0];
  const ogTitle = findAll(document, (e) => e.name === "meta" && attr(e, "property") === "og:title")[0];
  let title = normalise(titleEl ? textOf(titleEl) : "") || normalise(ogTitle ? attr(ogTitle, "content") : "");
  for (const selector of rules.removeSelectors ?? []) {
    for (const el of findAll(document, (e) => matchesSimpleSelector(e, selector))) {
      const siblings = (el.parent as Element | null)?.children;
      if (siblings) siblings.splice(siblings.indexOf(el), 1);
    }
  }
  prune(document);
  const root = mainRoot(document);
  const raw: Block[] = [];
  collectBlocks(root, raw);
  const blocks = raw.filter((b) => b.text.length > 0);
  if (!title) title = blocks.find((b) => b.kind === "heading")?.text ?? "";
  return { title, blocks, text: blocks.map((b) => b.text).join("\n\n") };
}
