/**
 * Each extraction pass weighed by leaving it out (decision 041: a pass stays only if it helps both
 * halves of `extraction-dev` and the existing pages). For every pass, and for
 * Readability with no pass at all (the plain baseline), prints beside the full extraction:
 * - the existing pages' mean word F1 (`real-pages`, `real-pages-dev`), and how many pages gain or lose;
 * - `extraction-dev`'s snippet F1 on half A and half B, and how many pages gain or lose;
 * - the extraction's time a page (one thread; noisy on a shared machine, a guide only);
 * then, pass by pass, the pages it changes and by how much.
 *   npx tsx bench/extraction-passes.ts          FIXTURES_DIR=../shared/fixtures by default
 */
import { performance } from "node:perf_hooks";
import { EXTRACTION_PASSES, extractHtml } from "../api/knowledge/extract/extract-html";
import {
  devPages,
  existingPages,
  FIXTURES,
  scoreDev,
  scoreExisting,
  snippetScores,
  type Extract,
  type Snippets,
} from "./extraction-sets";
import { meanOverlap, type Overlap } from "./text-overlap";

const existing = existingPages();
const dev = devPages();
if (!existing.length || !dev.length) {
  console.log(`no fixtures under ${FIXTURES}; set FIXTURES_DIR`);
  process.exit(0);
}

interface Run {
  label: string;
  /** Word overlap of each existing page with its reference, in `existing`'s order. */
  existingWords: Overlap[];
  /** Snippet counts of each `extraction-dev` page, in `dev`'s order. */
  devCounts: Snippets[];
  millisAPage: number;
}

function run(label: string, withoutPasses: ReadonlySet<string>): Run {
  const extract: Extract = (html) => extractHtml(html, {}, { withoutPasses });
  const started = performance.now();
  const existingWords = existing.map((page) => scoreExisting(page, extract).words);
  const devCounts = dev.map((page) => scoreDev(page, extract));
  return {
    label,
    existingWords,
    devCounts,
    millisAPage: (performance.now() - started) / (existing.length + dev.length),
  };
}

/** As `bench/extraction.ts` prints it: the F1 of the pages' mean precision and recall. */
const meanF1 = (r: Run) => meanOverlap(r.existingWords).f1;
const halfF1 = (r: Run, half: "A" | "B") => snippetScores(r.devCounts.filter((_, i) => dev[i].half === half)).f1;
/** A page's snippet figure: kept snippets found less left-out snippets found. */
const devNet = (c: Snippets) => c.tp - c.fp;

// Once before the figures, so that the first run's time does not carry the modules' compiling.
run("warm-up", new Set());
const full = run("all passes", new Set());
const runs = [
  ...EXTRACTION_PASSES.map((name) => run(`without ${name}`, new Set([name]))),
  run("no pass (Readability alone)", new Set(EXTRACTION_PASSES)),
];

/** Pages better (+) and worse (−) with the pass than without it. */
function gains(without: Run) {
  const deltas = full.existingWords.map((w, i) => w.f1 - without.existingWords[i].f1);
  const existingUp = deltas.filter((d) => d > 1e-9).length;
  const existingDown = deltas.filter((d) => d < -1e-9).length;
  const side = (half: "A" | "B") => {
    const pairs = dev.flatMap((page, i) =>
      page.half === half ? [[devNet(full.devCounts[i]), devNet(without.devCounts[i])]] : [],
    );
    return { up: pairs.filter(([w, wo]) => w > wo).length, down: pairs.filter(([w, wo]) => w < wo).length };
  };
  return { existingUp, existingDown, A: side("A"), B: side("B") };
}

const f3 = (n: number) => n.toFixed(3);
const f4 = (n: number) => n.toFixed(4);
const signed = (n: number, digits = 3) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(digits)}`;
console.log(
  `${existing.length} existing pages, extraction-dev ${dev.filter((p) => p.half === "A").length} (A) + ${dev.filter((p) => p.half === "B").length} (B) pages`,
);
console.log(
  "\nWhat each pass adds: the full extraction's figure less the figure without the pass (pages the pass makes better / worse)\n",
);
console.log(
  `| ${"run".padEnd(34)} | existing F1 | pass adds | pages +/− | dev A F1 | pass adds | pages +/− | dev B F1 | pass adds | pages +/− | ms a page | verdict |`,
);
console.log(`|${"---|".repeat(12)}`);
const row = (r: Run, cells: string[]) => console.log(`| ${r.label.padEnd(34)} | ${cells.join(" | ")} |`);
row(full, [
  f4(meanF1(full)),
  "",
  "",
  f3(halfF1(full, "A")),
  "",
  "",
  f3(halfF1(full, "B")),
  "",
  "",
  full.millisAPage.toFixed(1),
  "",
]);
for (const r of runs) {
  const g = gains(r);
  const addsExisting = meanF1(full) - meanF1(r);
  const addsA = halfF1(full, "A") - halfF1(r, "A");
  const addsB = halfF1(full, "B") - halfF1(r, "B");
  const changesNothing = g.existingUp + g.existingDown + g.A.up + g.A.down + g.B.up + g.B.down === 0;
  // The rule (decision 041): it raises the snippet F1 of both halves of extraction-dev, and costs the
  // existing pages less than the smaller of those two gains. Their reference is Readability's own
  // output, so any departure from Readability counts against a pass there, right or wrong.
  const helps = addsA > 1e-9 && addsB > 1e-9 && -addsExisting < Math.min(addsA, addsB);
  const isBaseline = r === runs[runs.length - 1];
  const verdict = isBaseline
    ? "(all passes against none)"
    : changesNothing
      ? "changes no page"
      : helps
        ? "helps"
        : "fails the rule";
  row(r, [
    f4(meanF1(r)),
    signed(addsExisting, 4),
    `${g.existingUp}/${g.existingDown}`,
    f3(halfF1(r, "A")),
    signed(addsA),
    `${g.A.up}/${g.A.down}`,
    f3(halfF1(r, "B")),
    signed(addsB),
    `${g.B.up}/${g.B.down}`,
    r.millisAPage.toFixed(1),
    verdict,
  ]);
}

console.log("\nPage by page, what each pass changes (existing pages: word F1; extraction-dev: kept − leaked snippets)");
for (const r of runs.slice(0, -1)) {
  const lines: string[] = [];
  existing.forEach((page, i) => {
    const delta = full.existingWords[i].f1 - r.existingWords[i].f1;
    if (Math.abs(delta) > 1e-9) lines.push(`  ${`${page.set}/${page.name}`.padEnd(52)} ${signed(delta)}`);
  });
  dev.forEach((page, i) => {
    const w = full.devCounts[i];
    const wo = r.devCounts[i];
    if (w.tp !== wo.tp || w.fp !== wo.fp) {
      const kept = w.tp - wo.tp;
      const leaked = w.fp - wo.fp;
      lines.push(
        `  ${`extraction-dev ${page.half} ${page.file}`.padEnd(52)} kept ${kept >= 0 ? "+" : ""}${kept}, leaked ${leaked >= 0 ? "+" : ""}${leaked}`,
      );
    }
  });
  console.log(`\n${r.label.replace("without ", "")}: ${lines.length ? `${lines.length} pages` : "no page changes"}`);
  for (const line of lines) console.log(line);
}
