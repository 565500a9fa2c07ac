/**
 * Main-content extraction on real pages nobody here wrote: Readability's test pages in
 * `real-pages` and `real-pages-dev` (shared fixtures), each page extracted and chunked as the
 * pipeline does, the chunks' text scored against the page's `expected.html`. Prints word-level
 * precision, recall and F1 per page and overall, 4-word-shingle figures, and the pages left empty;
 * then trafilatura's snippet scoring on `extraction-dev` (below).
 *   npx tsx bench/extraction.ts          FIXTURES_DIR=../shared/fixtures by default
 */
import { performance } from "node:perf_hooks";
import { extractHtml } from "../api/knowledge/extract/extract-html";
import {
  devPages,
  existingPages,
  FIXTURES,
  scoreDev,
  scoreExisting,
  snippetScores,
  type Snippets,
} from "./extraction-sets";
import { meanOverlap, type Overlap } from "./text-overlap";

const pages = existingPages();
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
  const started = performance.now();
  const score = scoreExisting(page, (html) => extractHtml(html));
  millis += performance.now() - started;
  if (score.empty) empty++;
  const { words: w, shingles: s } = score;
  words.push(w);
  shingles.push(s);
  console.log(
    `${`${page.set}/${page.name}`.padEnd(44)}        ${fmt(w.precision)}  ${fmt(w.recall)}  ${fmt(w.f1)} | ${fmt(s.f1)}${score.empty ? "  EMPTY" : ""}`,
  );
}
const all = meanOverlap(words);
const all4 = meanOverlap(shingles);
console.log(
  `\n${pages.length} pages: word precision ${fmt(all.precision)}, recall ${fmt(all.recall)}, F1 ${fmt(all.f1)}` +
    ` (mean of per-page F1 ${fmt(words.reduce((s, o) => s + o.f1, 0) / words.length)})`,
);
console.log(`4-word shingles: precision ${fmt(all4.precision)}, recall ${fmt(all4.recall)}, F1 ${fmt(all4.f1)}`);
console.log(`pages with no text: ${empty}`);
console.log(`extract + chunk + scoring: ${(millis / pages.length).toFixed(1)} ms a page on average (one thread)`);

/**
 * trafilatura's evaluation pages (`extraction-dev`: 302 real pages with snippets to keep and
 * snippets to leave out), each page's bytes decoded as the pipeline decodes a fetched page (its
 * real charset standing in for the Content-Type header), extracted and chunked, and scored as
 * trafilatura scores: a kept snippet found is a true positive, missing a false negative; a
 * left-out snippet found is a false positive. Whitespace runs collapse to one space on both sides.
 * Half A (pages whose name hashes even) is for studying misses, half B only confirms.
 */
const dev = devPages();
if (dev.length) {
  const counts: Record<"A" | "B", Snippets[]> = { A: [], B: [] };
  let devMillis = 0;
  for (const page of dev) {
    const started = performance.now();
    counts[page.half].push(scoreDev(page, (html) => extractHtml(html)));
    devMillis += performance.now() - started;
  }
  console.log(`\nextraction-dev (trafilatura's evaluation pages, snippet scoring):`);
  const rows: [string, Snippets[]][] = [
    ["half A", counts.A],
    ["half B", counts.B],
    ["all", [...counts.A, ...counts.B]],
  ];
  for (const [label, pageCounts] of rows) {
    const { precision, recall, f1 } = snippetScores(pageCounts);
    const emptyPages = pageCounts.filter((c) => c.empty).length;
    console.log(
      `  ${label.padEnd(7)} ${String(pageCounts.length).padStart(3)} pages: precision ${fmt(precision)}, recall ${fmt(recall)}, F1 ${fmt(f1)}, pages empty ${emptyPages}`,
    );
  }
  console.log(
    `  (published on the whole set of 990: trafilatura F1 0.924, P 0.906, R 0.943; extraction and scoring ${(devMillis / dev.length).toFixed(1)} ms a page, decoding apart)`,
  );
}
