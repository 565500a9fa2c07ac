/**
 * What the extraction knows about HTML and more than one of its steps reads: which elements and
 * roles are never a page's text, which are its furniture and which hold its content, how headings
 * are named, how much link text each kind of block may hold, and the shapes of lines the passes
 * around Readability look for. The pre-cut (html-precut.ts), the clean-up (html-cleanup.ts), the
 * block walk (html-blocks.ts) and the passes (passes/) read them from here, each written once.
 */

/** DOM node types (Node.ELEMENT_NODE, Node.TEXT_NODE): linkedom's nodes and the browser's carry them as numbers. */
export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

/**
 * Elements whose content is never text a visitor reads, wherever they stand: code and styling
 * (script, style, noscript, template), drawings and embedded documents (svg, canvas, iframe,
 * object, embed), and form controls, whose labels are commands ("Share", "Go"), not sentences.
 */
const NEVER_TEXT = [
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "object",
  "embed",
  "button",
  "select",
  "textarea",
];

/** Roles of what is never the page's text, inside an article too: its navigation, search, dialogs and menus. */
export const NAVIGATION_ROLES = new Set(["navigation", "search", "dialog", "alertdialog", "menu", "menubar"]);
/** The elements whose own role is among those: <nav> (navigation) and <dialog> (dialog). */
const NAVIGATION_ELEMENTS = ["nav", "dialog"];

/**
 * What the pre-cut leaves out of the tree it builds, wherever it stands: what is never text, and
 * the page's navigation and dialogs. Everything it keeps, Readability weighs (html-precut.ts).
 */
export const CUT_WHILE_PARSING = new Set([...NEVER_TEXT, ...NAVIGATION_ELEMENTS]);

/**
 * What the block walk reads no text from (html-blocks.ts): what is never text, and what the
 * pre-cut keeps in the tree for another reader although it holds no text either:
 * - pictures and media (img, picture, source, video, audio): Readability counts a container's
 *   images when it judges it, and a picture's caption is found by its figure's image or video
 *   (html-cleanup.ts);
 * - the head's metadata (head, link, meta): the title, the descriptions and the page's type are read there;
 * - fields (input): the pre-cut finds sign-up and search boxes by their fields once the tree is built;
 * - formulas (math): MathML's text is a formula's symbols, one element each, not a sentence.
 * <nav> and <dialog> are not here: the pre-cut took them out, and a tree built otherwise (a test's)
 * is walked as written.
 */
export const NOT_WALKED = new Set([
  ...NEVER_TEXT,
  "img",
  "picture",
  "source",
  "video",
  "audio",
  "head",
  "link",
  "meta",
  "input",
  "math",
]);

/**
 * The page's furniture: its header, footer and side columns, as elements and as the landmark roles
 * they stand for (banner, contentinfo, complementary). Furniture outside the content is not the
 * page's text; inside an <article> or <main> it is the article's own (its byline in a <header>).
 */
export const FURNITURE_ELEMENTS = new Set(["header", "footer", "aside"]);
export const FURNITURE_ROLES = new Set(["banner", "contentinfo", "complementary"]);

/** Elements that hold the page's content, and the role that says so of any element. */
export const CONTENT_ELEMENTS = new Set(["article", "main"]);
export const CONTENT_ROLE = "main";
/** Never taken out as a box, whatever its name or size: the page itself and its content elements. */
export const KEPT_WHOLE = new Set(["html", "body", ...CONTENT_ELEMENTS]);

/**
 * What a cleaned body goes without (html-cleanup.ts, when Readability found too little): the
 * navigation and the furniture, by element and by role, and forms and menus, whose words are
 * labels. Unlike the pre-cut it also takes out an aside inside the content.
 */
export const CLEANED_BODY_CUTS = [
  ...NAVIGATION_ELEMENTS,
  ...FURNITURE_ELEMENTS,
  "form",
  "menu",
  ...[...NAVIGATION_ROLES, ...FURNITURE_ROLES].map((role) => `[role=${role}]`),
].join(",");

/** A heading element's name, its level the first group: h1 to h6. */
export const HEADING = /^h([1-6])$/;
/**
 * The attribute that carries an <h1>'s level through Readability, which turns every <h1> into an
 * <h2>: the pre-cut sets it, the block walk reads it, so the page's outline names the heading paths.
 */
export const HEADING_LEVEL = "data-heading-level";

/*
 * How much of a thing's text may be link text before it is taken for links. Each pass sets its own
 * limit, as each judges a different thing: prose above the article is held strictest, a box of
 * short facts may link some of them, a card links its own title. Each was chosen on trafilatura's
 * evaluation pages (decision 022). The passes over blocks count the block's characters
 * (Block.linkChars); those over elements count characters but whitespace (dom-reading.ts, linkShareOf).
 */
/** At most this share of a lead paragraph above the article is link text: more is a teaser or a list of links. */
export const MAX_LINK_SHARE_OF_LEAD = 0.2;
/** At most this share of a box of facts is link text: lists mostly of links are navigation or teasers. */
export const MAX_LINK_SHARE_OF_FACT_BOX = 0.3;
/**
 * At most this share of a card left beside the article is link text: a column of teasers beside
 * the article (made like it, as grid columns are) is links, and stays out.
 */
export const MAX_LINK_SHARE_OF_CARD = 0.5;
/**
 * A pointer line ("Read also: <a>another story</a>") is mostly its link: at least this share of
 * it (50 %, 60 % and 70 % cut the same lines).
 */
export const MIN_LINK_SHARE_OF_POINTER = 0.6;

/** Ends like a sentence, in any script (".", "!", "?", "。", "।"…), closing quotes or brackets after. */
export const SENTENCE_END = /\p{Sentence_Terminal}["'”’»)\]]*$/u;
/**
 * Figures, times, prices, e-mail, and "Label: value" lines ("Location: Main Hall"): contact lines
 * and facts are text to keep, however short.
 */
export const HOLDS_DATA = /[\p{N}@]|\S:\s*\S/u;
/**
 * The words of a headline, at least: a shorter line that is all link is a button ("Download the
 * report"), a shorter heading a name ("Nursing (BA)").
 */
export const HEADLINE_WORDS = 5;
