/**
 * Main-content extraction on real pages nobody here wrote: Readability's test pages in
 * `real-pages` and `real-pages-dev` (shared fixtures), each page extracted and chunked as the
 * pipeline does, the chunks' text scored against the page's `expected.html`. Prints word-level
 * precision, recall and F1 per page and overall, 4-word-shingle figures, and the pages left empty;
 * then trafilatura's snippet scoring on `extraction-dev` (below).
 *   npx tsx bench/extraction.ts          FIXTURES_DIR=../shared/fixtures by default
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseHTML } from "linkedom";
import { chunkBlocks } from "../api/knowledge/index/chunk";
import { decodeHtml } from "../api/knowledge/extract/decode-html";
import { extractHtml } from "../api/knowledge/extract/extract-html";
import { blocksOf, type DomNode } from "../api/knowledge/extract/html-blocks";
import { meanOverlap, overlap, type Overlap } from "./text-overlap";

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");
const SETS = ["real-pages", "real-pages-dev"];

/** The reference text: expected.html's blocks, as plain text. */
function expectedText(file: string) {
  const { document } = parseHTML(`<!doctype html><html><body>${readFileSync(file, "utf8")}</body></html>`);
  return blocksOf(document.body as unknown as DomNode)
    .map((b) => b.text)
    .join("\n");
}

const pages = SETS.flatMap((set) => {
  const dir = path.join(FIXTURES, set);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, "source.html")))
    .map((name) => ({ set, name, dir: path.join(dir, name) }));
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
  console.log(
    `${`${page.set}/${page.name}`.padEnd(44)}        ${fmt(w.precision)}  ${fmt(w.recall)}  ${fmt(w.f1)} | ${fmt(s.f1)}${got.trim() ? "" : "  EMPTY"}`,
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
console.log(`extract + chunk: ${(millis / pages.length).toFixed(1)} ms a page on average (one thread)`);

/**
 * trafilatura's evaluation pages (`extraction-dev`: 302 real pages with snippets to keep and
 * snippets to leave out), each page's bytes decoded as the pipeline decodes a fetched page (its
 * real charset standing in for the Content-Type header), extracted and chunked, and scored as
 * trafilatura scores: a kept snippet found is a true positive, missing a false negative; a
 * left-out snippet found is a false positive. Whitespace runs collapse to one space on both sides.
 * Half A (pages whose name hashes even) is for studying misses, half B only confirms.
 */
const DEV = path.join(FIXTURES, "extraction-dev");
if (existsSync(path.join(DEV, "evaldata.json"))) {
  const evaldata = JSON.parse(readFileSync(path.join(DEV, "evaldata.json"), "utf8")) as Record<
    string,
    { file: string; with: string[]; without: string[] }
  >;
  const charsets = JSON.parse(readFileSync(path.join(DEV, "charsets.json"), "utf8")) as Record<string, string>;
  const squeeze = (text: string) => text.replace(/\s+/g, " ").trim();
  const half = (file: string) => (createHash("sha1").update(file).digest()[0] % 2 === 0 ? "A" : "B");
  const tally = {
    A: { tp: 0, fn: 0, fp: 0, tn: 0, pages: 0, empty: 0 },
    B: { tp: 0, fn: 0, fp: 0, tn: 0, pages: 0, empty: 0 },
  };
  let devMillis = 0;
  for (const { file, with: keep, without: leave } of Object.values(evaldata)) {
    const bytes = readFileSync(path.join(DEV, "html", file));
    const started = performance.now();
    const extracted = extractHtml(decodeHtml(bytes, charsets[file] ?? null));
    const text = squeeze(
      chunkBlocks(extracted.blocks)
        .map((c) => c.text)
        .join("\n"),
    );
    devMillis += performance.now() - started;
    const t = tally[half(file)];
    t.pages++;
    if (!text) t.empty++;
    for (const snippet of keep) {
      if (text.includes(squeeze(snippet))) t.tp++;
      else t.fn++;
    }
    for (const snippet of leave) {
      if (text.includes(squeeze(snippet))) t.fp++;
      else t.tn++;
    }
  }
  const scores = ({ tp, fn, fp }: { tp: number; fn: number; fp: number }) => {
    const precision = tp / (tp + fp || 1);
    const recall = tp / (tp + fn || 1);
    return { precision, recall, f1: (2 * precision * recall) / (precision + recall || 1) };
  };
  const both = { tp: tally.A.tp + tally.B.tp, fn: tally.A.fn + tally.B.fn, fp: tally.A.fp + tally.B.fp };
  console.log(`\nextraction-dev (trafilatura's evaluation pages, snippet scoring):`);
  const rows: [string, { tp: number; fn: number; fp: number; pages: number; empty: number }][] = [
    ["half A", tally.A],
    ["half B", tally.B],
    ["all", { ...both, pages: tally.A.pages + tally.B.pages, empty: tally.A.empty + tally.B.empty }],
  ];
  for (const [label, t] of rows) {
    const { precision, recall, f1 } = scores(t);
    console.log(
      `  ${label.padEnd(7)} ${String(t.pages).padStart(3)} pages: precision ${fmt(precision)}, recall ${fmt(recall)}, F1 ${fmt(f1)}, pages empty ${t.empty}`,
    );
  }
  console.log(
    `  (published on the whole set of 990: trafilatura F1 0.924, P 0.906, R 0.943; extraction ${(devMillis / Object.keys(evaldata).length).toFixed(1)} ms a page)`,
  );
}
