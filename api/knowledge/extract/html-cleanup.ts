/**
 * What is removed from a parsed page before its text is read: the operator's "Clean up HTML Tags"
 * selectors, boxes whose names mark them as boilerplate, and (for the cleaned-body fallback only)
 * page furniture. Hidden nodes and what is never text were cut from the markup before parsing
 * (html-precut).
 */
import { CLEANED_BODY_CUTS, CONTENT_ELEMENTS, KEPT_WHOLE } from "./rules";

/** The DOM members the clean-up uses (linkedom's elements have them). */
interface CleanElement {
  localName: string;
  parentNode: unknown;
  textContent: string | null;
  getAttribute(name: string): string | null;
  remove(): void;
}
interface CleanRoot {
  querySelectorAll(selector: string): ArrayLike<CleanElement>;
}

export interface CleanupRules {
  /** CSS selectors of elements to drop before extraction (AI Finetuning "Clean up HTML Tags"). */
  removeSelectors?: string[];
}

/** Removes every element of `root` matched by `test` (outermost first, so nothing is visited twice). */
function removeWhere(root: CleanRoot, selector: string, test: (el: CleanElement) => boolean) {
  for (const el of Array.from(root.querySelectorAll(selector))) {
    if (el.parentNode && test(el)) el.remove();
  }
}

/** The operator's selectors; one that is not valid CSS removes nothing rather than failing the page. */
export function removeOperatorSelectors(root: CleanRoot, rules: CleanupRules) {
  for (const selector of rules.removeSelectors ?? []) {
    try {
      removeWhere(root, selector, () => true);
    } catch {
      // An invalid selector (saved before selectors were checked as CSS) is skipped.
    }
  }
}

/** An element's class names and id, as one string: what boilerplate is recognised by. */
const namesOf = (el: CleanElement) => `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;

/** Class or id words of boilerplate: cookie banners, share bars, comments, sidebars, promos. */
const BOILERPLATE =
  /(^|[\s_-])(cookie|consent|gdpr|share|sharing|social|comments?|sidebar|breadcrumbs?|newsletter|subscribe|promo|advert|ads|sponsor|related|recommend|popup|modal|footer|masthead|menu|navbar|nav|skip-link|toolbar|signup|paywall|disqus)([\s_-]|$)/i;

/**
 * Strips a page down to a cleaned body for when the extractor finds nothing: navigation, headers,
 * footers, asides, forms and elements named like boilerplate go; an <article> or <main>'s own
 * header stays.
 */
export function removeFurniture(root: CleanRoot) {
  const inContent = (el: CleanElement) => {
    for (
      let node = el.parentNode as CleanElement | null;
      node && "localName" in node;
      node = node.parentNode as CleanElement | null
    ) {
      if (CONTENT_ELEMENTS.has(node.localName)) return true;
    }
    return false;
  };
  removeWhere(
    root,
    CLEANED_BODY_CUTS,
    (el) => !((el.localName === "header" || el.localName === "footer") && inContent(el)),
  );
  removeWhere(root, "[class],[id]", (el) => !KEPT_WHOLE.has(el.localName) && BOILERPLATE.test(namesOf(el)));
}

/**
 * Words of class names and ids that mark a box Readability would keep inside the article it picks:
 * notices ("editorial-disclaimer", "ad-disclosure", "shop-affiliate-note"), the stand-in shown for
 * an embed until its cookies are accepted ("video-embed-placeholder"), newsletter boxes, lists of
 * related articles ("relatedArticlesTextContainer"), breadcrumbs and tag lists. Its own list of
 * unlikely names spares an element whose names also sound like content ("column
 * community-notice", "…Articles…"), and a box of plain text becomes a nameless paragraph in its
 * article. So the boxes go before it reads the page. Chosen one word at a time on trafilatura's
 * evaluation pages (decision 022): "teaser" and "lead" are left out, as many sites name the
 * article's own opening paragraph so.
 */
const BOX_WORDS = new Set([
  "affiliate",
  "placeholder",
  "disclaimer",
  "disclosure",
  "newsletter",
  "related",
  "breadcrumb",
  "breadcrumbs",
  "tags",
]);
/** A box holding more than this share of the page's text is its content, whatever its name. */
const MAX_BOX_SHARE = 0.5;

/** An element's class names and id as lower-case words: "relatedArticlesTextContainer" gives related, articles, text, container. */
function nameWords(names: string) {
  return names
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/**
 * Whether an element's names may hold one of BOX_WORDS: each is a run of letters in them, whatever
 * its case. Most named elements hold none, and this one look spares them the split into words.
 */
const MAY_NAME_A_BOX = new RegExp([...BOX_WORDS].join("|"), "i");

/** Takes out of a page's body the boxes its names mark as boilerplate (BOX_WORDS). */
export function removeBoilerplateBoxes(body: CleanRoot & { textContent: string | null }) {
  // The page's text is measured once, and only on a page that has a box named so.
  let pageChars: number | null = null;
  removeWhere(body, "[class],[id]", (el) => {
    if (KEPT_WHOLE.has(el.localName)) return false;
    const names = namesOf(el);
    if (!MAY_NAME_A_BOX.test(names) || !nameWords(names).some((word) => BOX_WORDS.has(word))) return false;
    pageChars ??= (body.textContent ?? "").length;
    return (el.textContent ?? "").length <= MAX_BOX_SHARE * pageChars;
  });
}

/** What a figure shows that a visitor of the chat never sees. */
const PICTURE_SELECTOR = "img, picture, video";
/** What makes a figure's caption the title of text the chat does read: a table, a listing, a quote. */
const READ_FIGURE_SELECTOR = "table, pre, blockquote";
/** Captions holding more than this share of the page's text are its content: a gallery's page. */
const MAX_CAPTIONS_SHARE = 0.5;

/**
 * Takes out the captions of pictures: the `<figcaption>` of a `<figure>` that shows an image or a
 * video. They describe a picture the chat never shows ("Protesters outside the party's
 * headquarters on Friday. Ezra Acayan / Getty Images"), carry its credits, and repeat the
 * article; trafilatura leaves figures out, and its annotators count captions as boilerplate
 * (decision 022, "Captions of pictures"). A figure of a table, a code listing or a quote keeps its
 * caption, and so does a gallery, whose captions are most of its page's text.
 */
export function removePictureCaptions(body: CleanRoot & { textContent: string | null }) {
  const captions = Array.from(body.querySelectorAll("figure figcaption")).filter((caption) => {
    const figure = (caption as unknown as { closest(selector: string): CleanRoot | null }).closest("figure");
    return (
      figure !== null &&
      figure.querySelectorAll(PICTURE_SELECTOR).length > 0 &&
      figure.querySelectorAll(READ_FIGURE_SELECTOR).length === 0
    );
  });
  if (!captions.length) return;
  const captionChars = captions.reduce((sum, caption) => sum + (caption.textContent ?? "").trim().length, 0);
  if (captionChars > MAX_CAPTIONS_SHARE * (body.textContent ?? "").trim().length) return;
  for (const caption of captions) caption.remove();
}
