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
import { confidenceFeatures } from "../api/chat/answer-confidence";
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
  "best passage's score": (r) => [r.evidence.best],
  "the quality check's evidence (answer-confidence.ts)": (r) => confidenceFeatures(r.evidence),
  "… and the best relevance, the other pages' (BM25: not scale-free)": (r) => [
    ...confidenceFeatures(r.evidence),
    Math.log1p(r.gate.relevance),
    Math.log1p(r.gate.otherPage),
  ],
  "… and pairs near, answer's words": (r) => [
    ...confidenceFeatures(r.evidence),
    r.gate.pairs,
    r.gate.inAnswer,
    r.gate.inLead,
  ],
};

/** Logistic regression by gradient descent on standardised features (a handful of them, a few thousand rows). */
function fitLogistic(rows: number[][], labels: number[], rowWeights: number[] = rows.map(() => 1)) {
  const width = rows[0].length;
  const mean = Array.from({ length: width }, (_, j) => rows.reduce((s, x) => s + x[j], 0) / rows.length);
  const spread = Array.from(
    { length: width },
    (_, j) => Math.sqrt(rows.reduce((s, x) => s + (x[j] - mean[j]) ** 2, 0) / rows.length) || 1,
  );
  const standard = (x: number[]) => x.map((v, j) => (v - mean[j]) / spread[j]);
  const xs = rows.map(standard);
  const totalWeight = rowWeights.reduce((sum, w) => sum + w, 0);
  const weights = new Array(width + 1).fill(0);
  const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
  const predict = (x: number[]) => sigmoid(weights[width] + x.reduce((s, v, j) => s + v * weights[j], 0));
  for (let step = 0; step < 2000; step++) {
    const gradient = new Array(width + 1).fill(0);
    xs.forEach((x, i) => {
      const error = (predict(x) - labels[i]) * rowWeights[i];
      x.forEach((v, j) => (gradient[j] += error * v));
      gradient[width] += error;
    });
    for (let j = 0; j <= width; j++) weights[j] -= (0.5 * gradient[j]) / totalWeight;
  }
  const confidence = (x: number[]) => predict(standard(x));
  // The same model on the features as they are, for a module to hold: w·x + bias.
  const raw = weights.slice(0, width).map((w, j) => w / spread[j]);
  const bias = weights[width] - weights.slice(0, width).reduce((sum, w, j) => sum + (w * mean[j]) / spread[j], 0);
  return Object.assign(confidence, { raw, bias });
}

const abstained = (r: CvRecord, answers: boolean) => r.outcome === "fallback" || !answers;
const pct = (count: number, total: number) => `${((100 * count) / Math.max(total, 1)).toFixed(1).padStart(5)}%`;

/**
 * What the model learns the chance of: "right", that the question is answerable and the answer
 * holds its gold text (what the Quality Check's threshold states); "covered", that the question is
 * one the store covers (answerable against off-topic, unanswerable ones left out).
 */
const LABEL = process.env.LABEL === "covered" ? "covered" : "right";
const labelOf = (r: CvRecord) =>
  LABEL === "right" ? (r.kind === "answerable" && r.holds ? 1 : 0) : r.kind === "answerable" ? 1 : 0;
/**
 * The mix of questions the chance is stated for: half of them ones the store covers, a quarter
 * that its pages leave unanswered (SQuAD's unanswerable ones), a quarter about subjects it does not
 * hold at all (off-topic). The development set holds far more of the last two than an assistant
 * is asked; each record weighs its kind's share over its kind's count.
 */
const MIX: Record<string, number> = { answerable: 0.5, unanswerable: 0.25, "off-topic": 0.25 };
const mixWeights = (rows: CvRecord[]) => {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  const kinds = [...counts.keys()].reduce((sum, kind) => sum + MIX[kind], 0);
  return rows.map((r) => MIX[r.kind] / kinds / counts.get(r.kind)!);
};
/** Each record's chance as the model fitted without its fold put it. */
const heldChance = new Map<CvRecord, number>();
console.log(`label: ${LABEL}`);

for (const [name, features] of Object.entries(FEATURE_SETS)) {
  console.log(`\n${name}`);
  const held: { record: CvRecord; answers: boolean }[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const tuning = records.filter((r) => r.fold !== fold && (LABEL === "right" || r.kind !== "unanswerable"));
    const confidence = fitLogistic(tuning.map(features), tuning.map(labelOf), mixWeights(tuning));
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
    for (const record of heldOut) {
      held.push({ record, answers: confidence(features(record)) >= threshold });
      heldChance.set(record, confidence(features(record)));
    }
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

/**
 * The model the quality check holds: the evidence set fitted on all ten articles, as raw weights;
 * then how well its held-out chances were calibrated, and what each threshold did to held-out
 * articles (the Quality Check screen's default is chosen from this table).
 */
const chosen = FEATURE_SETS["the quality check's evidence (answer-confidence.ts)"];
const everyRecord = records.filter((r) => LABEL === "right" || r.kind !== "unanswerable");
const model = fitLogistic(everyRecord.map(chosen), everyRecord.map(labelOf), mixWeights(everyRecord));
console.log(
  `\nfitted on all ten articles: weights [${model.raw.map((w) => w.toFixed(4)).join(", ")}], bias ${model.bias.toFixed(4)}`,
);
// Held-out chances of the chosen set: the last fitted loop above left them for the last set, so fit again.
for (let fold = 0; fold < FOLDS; fold++) {
  const tuning = everyRecord.filter((r) => r.fold !== fold);
  const confidence = fitLogistic(tuning.map(chosen), tuning.map(labelOf), mixWeights(tuning));
  for (const record of records.filter((r) => r.fold === fold)) heldChance.set(record, confidence(chosen(record)));
}
console.log("calibration on held-out articles, in the mix above (stated chance → share right):");
const share = (part: number, whole: number) => `${(whole ? (100 * part) / whole : 0).toFixed(1).padStart(5)}%`;
const weightOf = new Map(records.map((r, i) => [r, mixWeights(records)[i]]));
for (let low = 0; low < 0.95; low += 0.1) {
  const inBin = records.filter((r) => {
    const chance = heldChance.get(r)!;
    return chance >= low && (chance < low + 0.1 || low >= 0.85);
  });
  const weight = inBin.reduce((sum, r) => sum + weightOf.get(r)!, 0);
  const right = inBin.filter((r) => r.kind === "answerable" && r.holds).reduce((sum, r) => sum + weightOf.get(r)!, 0);
  const stated = inBin.reduce((sum, r) => sum + weightOf.get(r)! * heldChance.get(r)!, 0);
  console.log(
    `  ${low.toFixed(1)}–${(low + 0.1).toFixed(1)}: ${String(inBin.length).padStart(5)} questions, stated ${share(stated, weight)}, right ${share(right, weight)}`,
  );
}
console.log(
  "threshold on held-out chances: answerable → fallback, contains, unanswerable abstained, off-topic abstained",
);
for (const threshold of [
  0, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7,
]) {
  const of = (kind: string) => records.filter((r) => r.kind === kind);
  const refuses = (r: CvRecord) => abstained(r, heldChance.get(r)! >= threshold);
  console.log(
    `  ${threshold.toFixed(2)}: ${pct(of("answerable").filter(refuses).length, of("answerable").length)}, ` +
      `${pct(of("answerable").filter((r) => r.holds && !refuses(r)).length, of("answerable").length)}, ` +
      `${pct(of("unanswerable").filter(refuses).length, of("unanswerable").length)}, ` +
      `${pct(of("off-topic").filter(refuses).length, of("off-topic").length)}`,
  );
}

/** Each held-out article's first source right at a few thresholds, beside the run's own gate: what a stricter gate costs it. */
console.log("first source right on held-out articles: the floor's, the run's gate, then at each threshold");
const articles = [...new Set(records.map((r) => r.article))].sort((a, b) => a - b);
for (const article of articles) {
  const answerable = records.filter((r) => r.article === article && r.kind === "answerable");
  const at = (threshold: number) =>
    pct(
      answerable.filter((r) => r.rightSource && !abstained(r, heldChance.get(r)! >= threshold)).length,
      answerable.length,
    );
  console.log(
    `  article ${article}: floor ${pct(answerable.filter((r) => r.floor?.rightSource).length, answerable.length)} | ` +
      `${pct(answerable.filter((r) => r.rightSource).length, answerable.length)} | ` +
      [0.03, 0.04, 0.045, 0.05, 0.07].map((t) => `${t}: ${at(t)}`).join("  "),
  );
}
