/**
 * Quality gates judged across articles, from the per-question records bench/answers-cv.ts wrote:
 * for each fold, a gate's threshold is chosen on the eight tuning articles (the lowest that abstains
 * from TARGET_OFF_TOPIC of their off-topic questions) and measured on the fold's two held-out
 * articles. A gate here only adds abstentions to what the chat did (an answer the chat gave the
 * fallback stays the fallback), which is exact for any gate stricter than the one the run used.
 *
 * Gates compared: the best passage's score (today's Minimum Retrieval Confidence), and a logistic
 * model of the chance that a question is one the store covers, fitted on the tuning articles'
 * answerable (covered) and off-topic (not covered) questions over the features the records hold.
 *
 *   npx tsx bench/gate-cv.ts [records.jsonl]   (default: answers-cv.jsonl in the system's temporary folder)
 */
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { CvRecord } from "./answers-cv";

const file = process.argv[2] ?? path.join(tmpdir(), "answers-cv.jsonl");
if (!existsSync(file)) {
  console.log(`gate-cv: skipped, no records at ${file} (run bench/answers-cv.ts first)`);
  process.exit(0);
}
const records = readFileSync(file, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as CvRecord);
const FOLDS = 5;
const TARGET_OFF_TOPIC = Number(process.env.TARGET_OFF_TOPIC ?? 0.95);
/** With TARGET_FALLBACK set, each fold's threshold is instead the highest that gives at most this share of its tuning articles' answerable questions the fallback. */
const TARGET_FALLBACK = process.env.TARGET_FALLBACK ? Number(process.env.TARGET_FALLBACK) : null;

type Features = (r: CvRecord) => number[];

const FEATURE_SETS: Record<string, Features> = {
  "best passage's score": (r) => [r.gate.best],
  "score, weight the store lacks": (r) => [r.gate.best, r.gate.absent],
  "score, lacking, relevance, key words": (r) => [
    r.gate.best,
    r.gate.absent,
    Math.log1p(r.gate.relevance),
    Math.log1p(r.gate.keyWords),
  ],
  "… and the best page's share, rarest word held, other pages": (r) => [
    r.gate.best,
    r.gate.absent,
    Math.log1p(r.gate.relevance),
    Math.log1p(r.gate.keyWords),
    r.gate.page,
    r.gate.rarest ? 1 : 0,
    Math.log1p(r.gate.otherPage),
    r.gate.pages,
  ],
};

/** Logistic regression by gradient descent on standardised features (a handful of them, a few thousand rows). */
function fitLogistic(rows: number[][], labels: number[]) {
  const width = rows[0].length;
  const mean = Array.from({ length: width }, (_, j) => rows.reduce((s, x) => s + x[j], 0) / rows.length);
  const spread = Array.from(
    { length: width },
    (_, j) => Math.sqrt(rows.reduce((s, x) => s + (x[j] - mean[j]) ** 2, 0) / rows.length) || 1,
  );
  const standard = (x: number[]) => x.map((v, j) => (v - mean[j]) / spread[j]);
  const xs = rows.map(standard);
  const weights = new Array(width + 1).fill(0);
  const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
  const predict = (x: number[]) => sigmoid(weights[width] + x.reduce((s, v, j) => s + v * weights[j], 0));
  for (let step = 0; step < 2000; step++) {
    const gradient = new Array(width + 1).fill(0);
    xs.forEach((x, i) => {
      const error = predict(x) - labels[i];
      x.forEach((v, j) => (gradient[j] += error * v));
      gradient[width] += error;
    });
    for (let j = 0; j <= width; j++) weights[j] -= (0.5 * gradient[j]) / xs.length;
  }
  return (x: number[]) => predict(standard(x));
}

const abstained = (r: CvRecord, answers: boolean) => r.outcome === "fallback" || !answers;
const pct = (count: number, total: number) => `${((100 * count) / Math.max(total, 1)).toFixed(1).padStart(5)}%`;

for (const [name, features] of Object.entries(FEATURE_SETS)) {
  console.log(`\n${name}`);
  const held: { record: CvRecord; answers: boolean }[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const tuning = records.filter((r) => r.fold !== fold && r.kind !== "unanswerable");
    const confidence = fitLogistic(
      tuning.map(features),
      tuning.map((r) => (r.kind === "answerable" ? 1 : 0)),
    );
    // The lowest threshold abstaining from the target share of the tuning articles' off-topic questions.
    const offTopic = tuning
      .filter((r) => r.kind === "off-topic" && r.outcome !== "fallback")
      .map((r) => confidence(features(r)))
      .sort((a, b) => a - b);
    const offTopicAll = tuning.filter((r) => r.kind === "off-topic").length;
    const mayAnswer = Math.floor(offTopicAll * (1 - TARGET_OFF_TOPIC));
    let threshold = offTopic.length > mayAnswer ? offTopic[offTopic.length - 1 - mayAnswer] + 1e-9 : 0;
    if (TARGET_FALLBACK !== null) {
      const answerable = tuning.filter((r) => r.kind === "answerable");
      const mayRefuse =
        Math.floor(answerable.length * TARGET_FALLBACK) - answerable.filter((r) => r.outcome === "fallback").length;
      const scores = answerable
        .filter((r) => r.outcome !== "fallback")
        .map((r) => confidence(features(r)))
        .sort((a, b) => a - b);
      threshold = mayRefuse > 0 ? scores[Math.min(mayRefuse, scores.length) - 1] + 1e-9 : 0;
    }
    const tuningFallback = tuning.filter(
      (r) => r.kind === "answerable" && abstained(r, confidence(features(r)) >= threshold),
    ).length;
    const answerableTuning = tuning.filter((r) => r.kind === "answerable").length;
    const heldOut = records.filter((r) => r.fold === fold);
    for (const record of heldOut) held.push({ record, answers: confidence(features(record)) >= threshold });
    const of = (kind: string) => held.filter((h) => h.record.fold === fold && h.record.kind === kind);
    console.log(
      `  fold ${fold}: threshold ${threshold.toFixed(3)} (tuning: answerable → fallback ${pct(tuningFallback, answerableTuning)}) | held out: ` +
        `answerable → fallback ${pct(of("answerable").filter((h) => abstained(h.record, h.answers)).length, of("answerable").length)}, ` +
        `unanswerable abstained ${pct(of("unanswerable").filter((h) => abstained(h.record, h.answers)).length, of("unanswerable").length)}, ` +
        `off-topic abstained ${pct(of("off-topic").filter((h) => abstained(h.record, h.answers)).length, of("off-topic").length)}, ` +
        `contains ${pct(of("answerable").filter((h) => h.record.holds && !abstained(h.record, h.answers)).length, of("answerable").length)}`,
    );
  }
  const of = (kind: string) => held.filter((h) => h.record.kind === kind);
  console.log(
    `  held out, all folds: answerable → fallback ${pct(of("answerable").filter((h) => abstained(h.record, h.answers)).length, of("answerable").length)}, ` +
      `unanswerable abstained ${pct(of("unanswerable").filter((h) => abstained(h.record, h.answers)).length, of("unanswerable").length)}, ` +
      `off-topic abstained ${pct(of("off-topic").filter((h) => abstained(h.record, h.answers)).length, of("off-topic").length)}`,
  );
}
