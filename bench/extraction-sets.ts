/**
 * The extraction's development sets and their scoring, shared by `bench/extraction.ts` (figures
 * page by page) and `bench/extraction-passes.ts` (each pass weighed by leaving it out):
 * - the existing pages: Readability's test pages in `real-pages` and `real-pages-dev`, each page's
 *   chunks scored against its `expected.html` by word overlap;
 * - `extraction-dev`: trafilatura's evaluation pages, scored by the snippets to keep and to leave
 *   out, in two halves by a hash of the file's name (A for studying misses, B only confirms).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { parseHTML } from "linkedom";
import { chunkBlocks } from "../api/knowledge/index/chunk";
import { decodeHtml } from "../api/knowledge/extract/decode-html";
import type { ExtractedPage } from "../api/knowledge/extract/extract-html";
import { blocksOf, type DomNode } from "../api/knowledge/extract/html-blocks";
import { overlap, type Overlap } from "./text-overlap";

export const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");

/** An extraction of one page's markup, as the benchmark weighs it. */
export type Extract = (html: string) => ExtractedPage;

/** The text the pipeline would store of a page: its chunks, one per line. */
export const storedText = (page: ExtractedPage) =>
  chunkBlocks(page.blocks)
    .map((c) => c.text)
    .join("\n");

export interface ExistingPage {
  set: string;
  name: string;
  source: string;
  /** The reference text: expected.html's blocks, as plain text. */
  expected: string;
}

function expectedText(file: string) {
  const { document } = parseHTML(`<!doctype html><html><body>${readFileSync(file, "utf8")}</body></html>`);
  return blocksOf(document.body as unknown as DomNode)
    .map((b) => b.text)
    .join("\n");
}

/** `real-pages` and `real-pages-dev`, each page with its source and its reference text. */
export function existingPages(): ExistingPage[] {
  return ["real-pages", "real-pages-dev"].flatMap((set) => {
    const dir = path.join(FIXTURES, set);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => existsSync(path.join(dir, name, "source.html")))
      .map((name) => ({
        set,
        name,
        source: readFileSync(path.join(dir, name, "source.html"), "utf8"),
        expected: expectedText(path.join(dir, name, "expected.html")),
      }));
  });
}

/** One existing page's extraction against its reference: words and 4-word shingles. */
export function scoreExisting(page: ExistingPage, extract: Extract) {
  const got = storedText(extract(page.source));
  return { empty: !got.trim(), words: overlap(got, page.expected), shingles: overlap(got, page.expected, 4) };
}

export interface DevPage {
  file: string;
  half: "A" | "B";
  /** The page's bytes decoded as the pipeline decodes a fetched page (its real charset standing in for the header). */
  html: string;
  keep: string[];
  leave: string[];
}

const squeeze = (text: string) => text.replace(/\s+/g, " ").trim();

/** `extraction-dev`'s pages, or [] when the fixtures are absent. */
export function devPages(): DevPage[] {
  const dir = path.join(FIXTURES, "extraction-dev");
  if (!existsSync(path.join(dir, "evaldata.json"))) return [];
  const evaldata = JSON.parse(readFileSync(path.join(dir, "evaldata.json"), "utf8")) as Record<
    string,
    { file: string; with: string[]; without: string[] }
  >;
  const charsets = JSON.parse(readFileSync(path.join(dir, "charsets.json"), "utf8")) as Record<string, string>;
  return Object.values(evaldata).map(({ file, with: keep, without: leave }) => ({
    file,
    half: createHash("sha1").update(file).digest()[0] % 2 === 0 ? "A" : "B",
    html: decodeHtml(readFileSync(path.join(dir, "html", file)), charsets[file] ?? null),
    keep: keep.map(squeeze),
    leave: leave.map(squeeze),
  }));
}

/** Snippet counts, as trafilatura counts them. */
export interface Snippets {
  tp: number;
  fn: number;
  fp: number;
  empty: boolean;
}

/** One `extraction-dev` page's stored text, the snippets to keep it lacks and the snippets to leave out it holds. */
export function devMisses(page: DevPage, extract: Extract) {
  const text = squeeze(storedText(extract(page.html)));
  return {
    text,
    missing: page.keep.filter((snippet) => !text.includes(snippet)),
    leaked: page.leave.filter((snippet) => text.includes(snippet)),
  };
}

/** One `extraction-dev` page's extraction: kept snippets found (tp) or missing (fn), left-out ones found (fp). */
export function scoreDev(page: DevPage, extract: Extract): Snippets {
  const { text, missing, leaked } = devMisses(page, extract);
  return { tp: page.keep.length - missing.length, fn: missing.length, fp: leaked.length, empty: !text };
}

/** Precision, recall and F1 over summed snippet counts. */
export function snippetScores(counts: readonly Snippets[]): Overlap {
  const tp = counts.reduce((sum, c) => sum + c.tp, 0);
  const fn = counts.reduce((sum, c) => sum + c.fn, 0);
  const fp = counts.reduce((sum, c) => sum + c.fp, 0);
  const precision = tp / (tp + fp || 1);
  const recall = tp / (tp + fn || 1);
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall || 1) };
}
