/**
 * The SQuAD 2.0 development set of the shared fixtures (qa-dev/), as the answer benchmarks use it:
 * its questions, its articles as web pages, SQuAD's answer matching, and a plain floor to compare
 * with (bench/answers-squad.ts, bench/answers-cv.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { QUALITY_CHECK_DEFAULTS } from "@contract";
import { sentencesOf } from "../api/knowledge/words/sentences";
import { HTML, type ServedPage } from "./answer-pages";

interface SquadFile {
  data: {
    title: string;
    paragraphs: { context: string; qas: { question: string; is_impossible: boolean; answers: { text: string }[] }[] }[];
  }[];
}

export interface SquadQuestion {
  /** The question written before it on its paragraph, if any. */
  previous: string | null;
  /** The article's position in the file. */
  article: number;
  question: string;
  golds: string[];
  answerable: boolean;
}

export const squadDatasetIn = (fixtures: string) => path.join(fixtures, "qa-dev", "squad2-dev-10-articles.json");

/** Questions in flight at once: a few visitors at a time, as the widget is used. */
export const VISITORS_AT_ONCE = 4;
/** What the responder asks retrieval for (api/chat/responder.ts). */
export const RESPONDER_LIMIT = 20;

/**
 * The set under FIXTURES_DIR (default ../shared/fixtures), BENCH_LIMIT questions of each article at
 * most (all by default); `bench` ends, saying why, when the fixtures are absent.
 */
export function squadSetOrExit(bench: string) {
  const fixtures = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");
  const limit = Number(process.env.BENCH_LIMIT ?? 0) || Infinity;
  if (!existsSync(squadDatasetIn(fixtures)) || !existsSync(path.join(fixtures, "real-pages"))) {
    console.log(`${bench}: skipped, no SQuAD development set or shared pages under ${fixtures} (set FIXTURES_DIR)`);
    process.exit(0);
  }
  return { fixtures, limit, squad: loadSquadSet(fixtures, limit) };
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The set read from `fixtures`: `limit` questions of each article at most. */
export function loadSquadSet(fixtures: string, limit = Infinity) {
  const articles = (JSON.parse(readFileSync(squadDatasetIn(fixtures), "utf8")) as SquadFile).data;
  const titleOf = (index: number) => articles[index].title.replace(/_/g, " ");
  const questions: SquadQuestion[] = articles.flatMap((article, index) =>
    article.paragraphs
      .flatMap((paragraph) =>
        paragraph.qas.map((qa, at) => ({ ...qa, previous: at ? paragraph.qas[at - 1].question : null })),
      )
      .slice(0, limit)
      .map((qa) => ({
        previous: qa.previous,
        article: index,
        question: qa.question,
        golds: [...new Set(qa.answers.map((a) => a.text))],
        answerable: !qa.is_impossible,
      })),
  );
  /** The article's page path on the bench site. */
  const articlePage = (index: number) => `squad/${articles[index].title}.html`;
  /** The article as a web page: its title as the page's title and heading, each paragraph a `<p>`. */
  const articleHtml = (index: number): ServedPage => {
    const title = escapeHtml(titleOf(index));
    const body = articles[index].paragraphs.map((p) => `<p>${escapeHtml(p.context)}</p>`).join("\n");
    return {
      type: HTML,
      body: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n<h1>${title}</h1>\n${body}\n</body></html>\n`,
    };
  };
  /** Every article's paragraphs, each with its article: what the floor ranks. */
  const paragraphs = articles.flatMap((article, index) =>
    article.paragraphs.map((p) => ({ article: index, text: p.context })),
  );
  return { articles, questions, titleOf, articlePage, articleHtml, paragraphs, floor: bm25Floor(paragraphs) };
}

/**
 * SQuAD's answer normalisation. Punctuation is any Unicode punctuation or symbol rather than ASCII's
 * alone, so that typographic quotes and dashes the pipeline may have straightened do not decide a match.
 */
const squadNormal = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, "")
    // Word edges by Unicode letters, as Python's \b in SQuAD's script (JavaScript's \b knows ASCII only).
    .replace(/(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

/** Whether `text` holds a gold answer, whole words only: a gold "10" is not in "100". */
export const holdsGold = (text: string, golds: string[]) => {
  const padded = ` ${squadNormal(text)} `;
  return golds.map(squadNormal).some((gold) => gold && padded.includes(` ${gold} `));
};

// ---- The floor: Okapi BM25 over the articles' paragraphs, written out so it depends on nothing measured.

const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing " +
    "down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most " +
    "my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them " +
    "themselves then there these they this those through to too under until up very was we were what when where which while who whom whose why will with " +
    "would you your yours yourself yourselves"
  ).split(" "),
);
/** Harman's S-stemmer: plurals only ("dynasties" → "dynasty", "engines" → "engine"), nothing that could merge unrelated words. */
const stem = (word: string) => {
  if (word.length > 4 && word.endsWith("ies") && !/[ae]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("es") && !/[aeo]es$/.test(word)) return word.slice(0, -1);
  if (word.length > 3 && word.endsWith("s") && !/[us]s$/.test(word)) return word.slice(0, -1);
  return word;
};
const termsOf = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP_WORDS.has(w)).map(stem);

export const FLOOR_K1 = 1.2;
export const FLOOR_B = 0.75;
export const FLOOR_DESCRIPTION = `Okapi BM25 k1=${FLOOR_K1} b=${FLOOR_B}, one document per paragraph, lower-cased words, English stop words removed, plural-only S-stemmer; the sentence of the top paragraph sharing the most question words`;

/**
 * Plain BM25 over `paragraphs`; a question's answer is the sentence of the top paragraph sharing
 * the most question words, its source the top paragraph's article, and `top` the best paragraphs
 * (as many as the responder hands a model by default).
 */
export function bm25Floor(paragraphList: { article: number; text: string }[]) {
  const paragraphs = paragraphList.map((p) => {
    const terms = termsOf(p.text);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    return { ...p, counts, length: terms.length };
  });
  const documentFrequency = new Map<string, number>();
  for (const p of paragraphs)
    for (const term of p.counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const averageLength = paragraphs.reduce((sum, p) => sum + p.length, 0) / paragraphs.length;
  /** Lucene's idf, which stays positive for words in more than half the paragraphs. */
  const idf = (term: string) => {
    const df = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (paragraphs.length - df + 0.5) / (df + 0.5));
  };
  return (question: string) => {
    const asked = [...new Set(termsOf(question))];
    const ranked = paragraphs
      .map((p) => {
        let score = 0;
        for (const term of asked) {
          const tf = p.counts.get(term) ?? 0;
          if (tf)
            score +=
              (idf(term) * tf * (FLOOR_K1 + 1)) /
              (tf + FLOOR_K1 * (1 - FLOOR_B + (FLOOR_B * p.length) / averageLength));
        }
        return { p, score };
      })
      .sort((a, b) => b.score - a.score);
    const best = ranked[0].p;
    let sentence = "";
    let shared = -1;
    for (const candidate of sentencesOf(best.text)) {
      const words = new Set(termsOf(candidate));
      const count = asked.filter((term) => words.has(term)).length;
      if (count > shared) [sentence, shared] = [candidate, count];
    }
    return {
      text: sentence,
      article: best.article,
      top: ranked.slice(0, QUALITY_CHECK_DEFAULTS.max_sources).map((r) => r.p.text),
    };
  };
}
