import { createRequire } from "node:module";
import path from "node:path";
import bidiFactory from "bidi-js";
import { getDocumentProxy, getMeta } from "unpdf";
import type { ExtractedPage } from "./extract-html";
import type { Block } from "./html-blocks";
import { storableText } from "./storable-text";

export interface ExtractedPdf extends ExtractedPage {
  pageCount: number;
}

export interface PdfOptions {
  /** Refuse documents with more pages than this (they are read whole). */
  maxPages?: number;
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * pdf.js's packed CMaps, from `pdfjs-dist` (the release unpdf bundles). They map the character
 * codes of the CJK fonts every reader is expected to have (STSong-Light with UniGB-UCS2-H,
 * KozMinPro with UniJIS-UCS2-H …), which PDFs using them do not embed: without the CMaps pdf.js
 * finds no text at all on such pages. Given as a directory, not a URL: in Node pdf.js reads the
 * files with `fs.readFile`, which takes a path (unpdf's own default, a `file:` URL, fails to load).
 */
const CMAPS = {
  cMapUrl:
    path.join(path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "cmaps") + path.sep,
  cMapPacked: true,
};

interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

/** The PDF's bookmarks as (depth, title, first page index), in document order; [] without an outline. */
async function outlineEntries(pdf: PdfDocument) {
  const entries: { depth: number; title: string; page: number }[] = [];
  const outline = ((await pdf.getOutline().catch(() => null)) ?? []) as OutlineNode[];
  const visit = async (nodes: OutlineNode[], depth: number) => {
    for (const node of nodes) {
      try {
        const dest = typeof node.dest === "string" ? await pdf.getDestination(node.dest) : node.dest;
        const target = dest?.[0];
        const page =
          typeof target === "number"
            ? target
            : target
              ? await pdf.getPageIndex(target as Parameters<PdfDocument["getPageIndex"]>[0])
              : -1;
        const title = node.title.replace(/\s+/g, " ").trim();
        if (page >= 0 && title) entries.push({ depth, title, page });
      } catch {
        // A bookmark pointing nowhere is ignored; the text is what matters.
      }
      if (depth < 4) await visit(node.items ?? [], depth + 1);
    }
  };
  await visit(outline, 0);
  return entries;
}

/** The bookmark path in force at the start of each page (sections starting on it included). */
function sectionPathByPage(entries: { depth: number; title: string; page: number }[], pageCount: number) {
  const paths: string[][] = [];
  const stack: string[] = [];
  let next = 0;
  const ordered = [...entries].sort((a, b) => a.page - b.page);
  for (let page = 0; page < pageCount; page++) {
    while (next < ordered.length && ordered[next].page <= page) {
      const entry = ordered[next++];
      stack.length = Math.min(stack.length, entry.depth);
      stack[entry.depth] = entry.title;
    }
    paths.push(stack.filter(Boolean));
  }
  return paths;
}

/** Lines at a page's top or bottom looked at for running heads and feet. */
const EDGE_LINES = 2;
/** A line at the edge of this share of the pages (and of three at least) runs through the document. */
const RUNNING_SHARE = 0.4;
/** A page number alone on its line: "12", "xiv", "- 3 -" (a roman numeral as such: "civil" is a word). */
const PAGE_NUMBER = /^[\s\p{Pd}]*(\d{1,4}|(?=[ivxlc])c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3}))[\s\p{Pd}]*$/iu;
/** Lines compared with their figures left out: "Chapter 2: Structures 3" runs through as "Chapter #: Structures #". */
const shapeOf = (line: string) => line.replace(/\d+/g, "#").replace(/\s+/g, " ").trim().toLowerCase();

/**
 * The pages' lines without the document's running heads and feet: a line that opens or ends many
 * of its pages in the same words (the title, a chapter's name, "Page 3 of 12"), and page numbers
 * alone on their lines. Left in, they run into the text of every page and into every answer
 * quoted from it. A page of one or two lines is left as it is: its lines are its text.
 */
export function withoutRunningLines(pages: string[][]): string[][] {
  const edges = (lines: string[]) =>
    lines.length > EDGE_LINES
      ? new Set([...lines.slice(0, EDGE_LINES), ...lines.slice(-EDGE_LINES)].map(shapeOf))
      : new Set<string>();
  const pagesAt = new Map<string, number>();
  for (const lines of pages) for (const shape of edges(lines)) pagesAt.set(shape, (pagesAt.get(shape) ?? 0) + 1);
  const running = (shape: string) => (pagesAt.get(shape) ?? 0) >= Math.max(3, RUNNING_SHARE * pages.length);
  return pages.map((lines) => {
    if (lines.length <= EDGE_LINES) return lines;
    const cut = (line: string) => PAGE_NUMBER.test(line) || running(shapeOf(line));
    let start = 0;
    let end = lines.length;
    while (start < Math.min(EDGE_LINES, end) && cut(lines[start])) start++;
    while (end > Math.max(start, lines.length - EDGE_LINES) && cut(lines[end - 1])) end--;
    return lines.slice(start, end);
  });
}

const bidi = bidiFactory();
/** A text item of pdf.js: its characters, their direction, and where it stands (`transform[4]` is its left edge). */
interface TextItem {
  str: string;
  dir: string;
  transform: number[];
  hasEOL: boolean;
}
const LETTER = /\p{L}/gu;
const letterCount = (text: string) => text.match(LETTER)?.length ?? 0;
/** Runs of the right-to-left scripts whose PDFs carry presentation forms (Arabic's contextual shapes). */
const RIGHT_TO_LEFT_RUN = /[\p{Script=Arabic}\p{Script=Hebrew}]+/gu;

/**
 * A page's text, line by line, as unpdf's `extractText` reads it (each item's text, a line break
 * after an item that ends a line), with right-to-left lines put in logical order.
 *
 * A PDF draws its text in visual order, left to right, and pdf.js reverses the characters within
 * each right-to-left item only. Producers that draw one glyph at a time (Chromium's printing, among
 * others) leave an Arabic line as single letters from its end to its start; others leave a Hebrew
 * line's words in order but its pieces (a number, a Latin name) on the wrong side. Such a line's
 * items are read left to right by position, their characters turned back to visual order, and the
 * Unicode Bidirectional Algorithm (bidi-js) reorders the line as a whole, in the page's direction,
 * with mirrored characters such as brackets turned back. Arabic's presentation forms (the letters'
 * contextual shapes, which such producers map their glyphs to) become letters again by NFKC.
 */
async function pageText(pdf: PdfDocument, pageNumber: number) {
  const items = (await (await pdf.getPage(pageNumber)).getTextContent()).items.filter(
    (item): item is typeof item & TextItem => "str" in item,
  );
  if (!items.some((item) => item.dir === "rtl")) {
    return items.map((item) => item.str + (item.hasEOL ? "\n" : "")).join("");
  }
  const rightToLeft = items.filter((item) => item.dir === "rtl").reduce((sum, item) => sum + letterCount(item.str), 0);
  const leftToRight = items.filter((item) => item.dir !== "rtl").reduce((sum, item) => sum + letterCount(item.str), 0);
  const direction = rightToLeft > leftToRight ? "rtl" : "ltr";
  const lines: TextItem[][] = [[]];
  for (const item of items) {
    lines[lines.length - 1].push(item);
    if (item.hasEOL) lines.push([]);
  }
  return lines
    .map((line) => {
      const text = line.some((item) => item.dir === "rtl")
        ? logicalOrder(
            [...line]
              .sort((a, b) => a.transform[4] - b.transform[4])
              .map((item) => (item.dir === "rtl" ? [...item.str].reverse().join("") : item.str))
              .join(""),
            direction,
          )
        : line.map((item) => item.str).join("");
      return text.replace(RIGHT_TO_LEFT_RUN, (run) => run.normalize("NFKC"));
    })
    .join("\n");
}

/** A line drawn in visual order, read in logical order by the bidirectional algorithm. */
function logicalOrder(visual: string, direction: "ltr" | "rtl") {
  return bidi.getReorderedString(visual, bidi.getEmbeddingLevels(visual, direction));
}

/**
 * Characters of the scripts written without spaces between words (decision 026: Han, kana, Thai,
 * Lao, Khmer, Burmese), by their script extensions, so that the punctuation they share (。、「」,
 * the prolonged sound mark ー) counts as theirs.
 */
const UNSPACED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
/** A letter of a script that puts spaces between its words (Latin, Cyrillic, Hangul …). */
const spacedLetter = (char: string) => /\p{L}/u.test(char) && !UNSPACED.test(char);
/** A line break and the spaces around it, with the characters on either side. */
const LINE_BREAK = /(\S)\s*\n\s*(?=(\S))/gu;

/**
 * A paragraph's lines as one text. A line break stands for a space, except beside a character of a
 * script written without spaces when the other side is no letter of a spaced script (the same
 * script, punctuation such as "，", a figure): a printed Chinese or Japanese line wraps inside a
 * word, and a space there would cut it in two ("申请材 料").
 */
function joinedLines(paragraph: string) {
  return paragraph.replace(LINE_BREAK, (_, before: string, after: string) =>
    (UNSPACED.test(before) && !spacedLetter(after)) || (UNSPACED.test(after) && !spacedLetter(before))
      ? before
      : `${before} `,
  );
}

/** A PDF that cannot be indexed, and why, in words for the operator who reads it on the file or URL. */
export class UnreadablePdf extends Error {}

/**
 * The text of a PDF, page by page: each page is a section ("Page N") under the bookmarks that
 * cover it, so chunks say where they came from. Encrypted, corrupt, over-long and text-less
 * (scanned) PDFs fail with a message saying which.
 */
export async function extractPdf(
  bytes: Uint8Array,
  fallbackTitle: string,
  options: PdfOptions = {},
): Promise<ExtractedPdf> {
  let pdf: PdfDocument;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, ...CMAPS });
  } catch (error) {
    const message = (error as Error).message ?? "";
    if ((error as Error).name === "PasswordException" || /password/i.test(message))
      throw new UnreadablePdf("The PDF is password-protected (encrypted); upload a copy without a password");
    throw new UnreadablePdf(`The PDF could not be read: ${message || "it is damaged"}`);
  }
  try {
    if (options.maxPages && pdf.numPages > options.maxPages) {
      throw new UnreadablePdf(`The PDF has ${pdf.numPages} pages; at most ${options.maxPages} are indexed`);
    }
    const text = await Promise.all(Array.from({ length: pdf.numPages }, (_, at) => pageText(pdf, at + 1)));
    const lines = withoutRunningLines(text.map((page) => page.split("\n").map((line) => line.trim())));
    const pages = lines.map((page) =>
      page
        .join("\n")
        .replace(/-\n(?=\p{Ll})/gu, "")
        .trim(),
    );
    if (!pages.some((page) => page.length > 0)) {
      throw new UnreadablePdf(
        "The PDF has no text layer (scanned images only); run it through OCR and upload it again",
      );
    }
    const meta = await getMeta(pdf).catch(() => ({ info: {} as Record<string, unknown> }));
    const title = storableText(String((meta.info as Record<string, unknown>).Title ?? "").trim() || fallbackTitle);
    const sections = sectionPathByPage(await outlineEntries(pdf), pages.length);
    const blocks: Block[] = [];
    pages.forEach((page, index) => {
      if (!page) return;
      const path = sections[index] ?? [];
      path.forEach((heading, depth) => blocks.push({ kind: "heading", level: depth + 1, text: heading }));
      blocks.push({ kind: "heading", level: path.length + 1, text: `Page ${index + 1}`, pathOnly: true });
      for (const paragraph of page.split(/\n\s*\n/)) {
        const clean = joinedLines(paragraph).replace(/\s+/g, " ").trim();
        if (clean) blocks.push({ kind: "text", text: clean });
      }
    });
    return {
      title,
      blocks,
      text: blocks
        .filter((b) => b.kind === "text")
        .map((b) => b.text)
        .join("\n\n"),
      pageCount: pdf.numPages,
    };
  } finally {
    // The loading task owns the document and its worker; pdf.js 5 no longer repeats destroy() on the document.
    await pdf.loadingTask.destroy().catch(() => {});
  }
}
