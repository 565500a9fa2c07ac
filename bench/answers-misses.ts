/**
 * Where the answers of `bench/answers-cv.ts` lose their gold text: each answerable question answered
 * without it, by where the answer was taken from. Read from the records that command wrote (its
 * BENCH_OUT), against the paragraph each question was written on:
 * - another page cited first (the wrong source);
 * - the right page, but no sentence of the question's own paragraph (another passage was chosen);
 * - the question's paragraph, but not the sentence holding the gold text (another sentence won);
 * - the gold sentence quoted, but cut around other words ("…");
 * - a gold text no one sentence holds (it runs across two).
 * It tells which stage a change should aim at: retrieval, the choice of passage, or of sentence.
 *
 *   npx tsx bench/answers-misses.ts <records.jsonl>
 *   FIXTURES_DIR=../shared/fixtures   where the shared fixtures are
 */
import { readFileSync } from "node:fs";
import { sentencesOf } from "../api/knowledge/words/sentences";
import type { CvRecord } from "./answers-cv";
import { holdsGold, squadSetOrExit } from "./squad-set";

const file = process.argv[2];
if (!file) {
  console.log("usage: npx tsx bench/answers-misses.ts <records.jsonl from bench/answers-cv.ts>");
  process.exit(1);
}
const { squad } = squadSetOrExit("answers-misses");
const records = readFileSync(file, "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as CvRecord);

/** Each question's own paragraph, by article and question. */
const paragraphOf = new Map<string, string>();
squad.articles.forEach((article, index) =>
  article.paragraphs.forEach((p) => p.qas.forEach((qa) => paragraphOf.set(`${index}\n${qa.question}`, p.context))),
);

const squeeze = (text: string) => text.replace(/\s+/g, " ").trim();
/** Whether the answer quotes a sentence: its opening or its end (a quote may be cut at either side). */
const quotes = (answer: string, sentence: string) => {
  const whole = squeeze(sentence);
  return answer.includes(whole.slice(0, 40)) || answer.includes(whole.slice(-40));
};

const KINDS = [
  "another page first",
  "another passage",
  "another sentence",
  "gold sentence cut",
  "gold across sentences",
] as const;
type Miss = (typeof KINDS)[number];

function missOf(record: CvRecord): Miss {
  if (!record.rightSource) return "another page first";
  const sentences = sentencesOf(paragraphOf.get(`${record.article}\n${record.question}`) ?? "");
  const golden = sentences.filter((sentence) => holdsGold(sentence, record.golds));
  const answer = squeeze(record.answer);
  if (!golden.length) return "gold across sentences";
  if (golden.some((sentence) => quotes(answer, sentence))) return "gold sentence cut";
  return sentences.some((sentence) => quotes(answer, sentence)) ? "another sentence" : "another passage";
}

const answered = records.filter((r) => r.kind === "answerable" && r.outcome !== "fallback" && r.outcome !== "error");
const byArticle = new Map<number, { answered: number; holds: number; misses: Record<Miss, number> }>();
for (const record of answered) {
  let row = byArticle.get(record.article);
  if (!row) {
    row = { answered: 0, holds: 0, misses: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Miss, number> };
    byArticle.set(record.article, row);
  }
  row.answered++;
  if (record.holds) row.holds++;
  else row.misses[missOf(record)]++;
}

const pct = (part: number, whole: number) => `${((100 * part) / (whole || 1)).toFixed(1)}%`.padStart(7);
console.log(`answerable questions answered, and where those without their gold text took the answer from (${file})`);
console.log(`  ${"article".padEnd(22)} answered  contains ${KINDS.map((k) => k.padStart(22)).join("")}`);
const total = { answered: 0, holds: 0, misses: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Miss, number> };
for (const [article, row] of [...byArticle].sort(([a], [b]) => a - b)) {
  console.log(
    `  ${squad.titleOf(article).padEnd(22)} ${String(row.answered).padStart(8)}  ${pct(row.holds, row.answered)} ${KINDS.map((k) => pct(row.misses[k], row.answered).padStart(22)).join("")}`,
  );
  total.answered += row.answered;
  total.holds += row.holds;
  for (const k of KINDS) total.misses[k] += row.misses[k];
}
console.log(
  `  ${"all".padEnd(22)} ${String(total.answered).padStart(8)}  ${pct(total.holds, total.answered)} ${KINDS.map((k) => `${pct(total.misses[k], total.answered)} (${total.misses[k]})`.padStart(22)).join("")}`,
);
