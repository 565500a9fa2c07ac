/**
 * The speed of the one sentence splitter (api/knowledge/words/sentences.ts), which the chunker runs
 * on every line of every indexed page: the text of the shared fixtures' pages (real-pages,
 * real-pages-dev and extraction-dev, extracted as the pipeline extracts them), split line by line as
 * the chunker splits it, and as one text. Beside it, the platform's ICU sentence segmenter
 * (Intl.Segmenter) on the same lines, one instance reused, and one made per line, for comparison
 * (docs/decisions/035). Prints milliseconds per megabyte of text (UTF-8), the best of a few rounds.
 *   npx tsx bench/sentences.ts          FIXTURES_DIR=../shared/fixtures by default
 *   BENCH_ROUNDS=5                      rounds of each measure
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { decodeHtml } from "../api/knowledge/extract/decode-html";
import { extractHtml } from "../api/knowledge/extract/extract-html";
import { sentencesOf } from "../api/knowledge/words/sentences";

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function pageFiles() {
  const files: { file: string; charset: string | null }[] = [];
  for (const set of ["real-pages", "real-pages-dev"]) {
    const dir = path.join(FIXTURES, set);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name, "source.html");
      if (existsSync(file)) files.push({ file, charset: null });
    }
  }
  const dev = path.join(FIXTURES, "extraction-dev");
  if (existsSync(dev)) {
    const charsets = JSON.parse(readFileSync(path.join(dev, "charsets.json"), "utf8")) as Record<string, string>;
    for (const name of readdirSync(path.join(dev, "html")))
      files.push({ file: path.join(dev, "html", name), charset: charsets[name] ?? null });
  }
  return files;
}

const files = pageFiles();
if (!files.length) {
  console.log(`sentences: skipped, no shared fixtures at ${FIXTURES} (set FIXTURES_DIR)`);
  process.exit(0);
}
const lines = files.flatMap(({ file, charset }) =>
  extractHtml(decodeHtml(readFileSync(file), charset)).blocks.flatMap((block) => block.text.split("\n")),
);
const whole = lines.join("\n");
const megabytes = Buffer.byteLength(whole) / 1e6;

const sharedSegmenter = new Intl.Segmenter(undefined, { granularity: "sentence" });
const segmentCount = (segmenter: Intl.Segmenter, text: string) => {
  let count = 0;
  for (const { segment } of segmenter.segment(text)) if (segment.trim()) count++;
  return count;
};

/** The best of ROUNDS runs of `split` over `texts`, in ms per MB, and the sentences it found. */
function measure(texts: string[], split: (text: string) => number) {
  let best = Infinity;
  let sentences = 0;
  for (let round = 0; round < ROUNDS; round++) {
    sentences = 0;
    const started = performance.now();
    for (const text of texts) sentences += split(text);
    best = Math.min(best, performance.now() - started);
  }
  return `${(best / megabytes).toFixed(1).padStart(7)} ms/MB  (${sentences} sentences)`;
}

console.log(`${files.length} pages, ${lines.length} lines, ${megabytes.toFixed(2)} MB of text; best of ${ROUNDS}`);
console.log(`one splitter, line by line        ${measure(lines, (line) => sentencesOf(line).length)}`);
console.log(`one splitter, as one text         ${measure([whole], (text) => sentencesOf(text).length)}`);
console.log(`ICU segmenter, one instance       ${measure(lines, (line) => segmentCount(sharedSegmenter, line))}`);
console.log(
  `ICU segmenter, one made per line  ${measure(lines, (line) => segmentCount(new Intl.Segmenter(undefined, { granularity: "sentence" }), line))}`,
);
