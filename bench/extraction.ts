/**
 * Main-content extraction on real pages nobody here wrote: Readability's test pages in
 * `real-pages` and `real-pages-dev` (shared fixtures), each page extracted and chunked as the
 * pipeline does, the chunks' text scored against the page's `expected.html`. Prints word-level
 * precision, recall and F1 per page and overall, 4-word-shingle figures, and the pages left empty.
 *   npx tsx bench/extraction.ts          FIXTURES_DIR=../shared/fixtures by default
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseHTML } from "linkedom";
import { chunkBlocks } from "../api/knowledge/chunk";
import { extractHtml } from "../api/knowledge/extract-html";
import { blocksOf, type DomNode } from "../api/knowledge/html-blocks";
import { meanOverlap, overlap, type Overlap } from "./text-overlap";

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");
const SETS = ["real-pages", "real-pages-dev"];

/** The reference text: expected.html's blocks, as plain text. */
function expectedText(file: string) {
  const { document } = parseHTML(`<!doctype html><html><body>${readFileSync(file, "utf8")}</body></html>`);
  return blocksOf(document.body as unknown as DomNode).map((b) => b.text).join("\n");
}

const pages = SETS.flatMap((set) => {
  const dir = path.join(FIXTURES, set);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => existsSync(path.join(dir, name, "source.html"))).map((name) => ({ set, name, dir: path.join(dir, name) }));
});
if (!pages.length) {
  console.log(`no fixtures under ${FIXTURES}; set FIXTURES_DIR`);
  process.exit(0);
}

const words: Overlap[] = [];
const shingles: Overlap[] = [];
let empty = 0;
let millis = 0;
const fmt = (n: number) => n.toFixed(3);
console.log(`${"page".padEnd(44)} words:  prec  recall   F1   | 4-shingles F1`);
for (const page of pages) {
  const source = readFileSync(path.join(page.dir, "source.html"), "utf8");
  const started = performance.now();
  const extracted = extractHtml(source);
  const chunks = chunkBlocks(extracted.blocks);
  millis += performance.now() - started;
  const got = chunks.map((c) => c.text).join("\n");
  if (!got.trim()) empty++;
  const want = expectedText(path.join(page.dir, "expected.html"));
  const w = overlap(got, want);
  const s = overlap(got, want, 4);
  words.push(w);
  shingles.push(s);
  console.log(`${`${page.set}/${page.name}`.padEnd(44)}        ${fmt(w.precision)}  ${fmt(w.recall)}  ${fmt(w.f1)} | ${fmt(s.f1)}${got.trim() ? "" : "  EMPTY"}`);
}
const all = meanOverlap(words);
const all4 = meanOverlap(shingles);
console.log(`\n${pages.length} pages: word precision ${fmt(all.precision)}, recall ${fmt(all.recall)}, F1 ${fmt(all.f1)}` +
  ` (mean of per-page F1 ${fmt(words.reduce((s, o) => s + o.f1, 0) / words.length)})`);
console.log(`4-word shingles: precision ${fmt(all4.precision)}, recall ${fmt(all4.recall)}, F1 ${fmt(all4.f1)}`);
console.log(`pages with no text: ${empty}`);
console.log(`extract + chunk: ${(millis / pages.length).toFixed(1)} ms a page on average (one thread)`);
