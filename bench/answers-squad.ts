/**
 * Answer quality on a public development set, the way the widget is used: the ten SQuAD 2.0
 * articles of the shared fixtures (qa-dev/) are served as web pages beside the pages
 * bench/answers.ts indexes (so other pages compete), everything is indexed by the real pipeline
 * jobs, and every question is asked through POST /v1/chat with an embed key.
 *
 * The articles at even positions of the file are the tuning half A, those at odd positions the
 * confirming half B; every figure is printed for A, for B and for both. Misses are shown for A only,
 * so that B stays a check on what was tuned by looking at A.
 *
 * Figures (texts compared after SQuAD's normalisation: lower case, no punctuation, no articles,
 * single spaces; a gold answer counts when it appears as whole words):
 * - answerable questions: the answer contains a gold answer; the median length of the answers that
 *   were not the fallback, in words; the first cited source is the question's article; the
 *   fallback was given; "passage handed to a model": a gold answer is in one of the passages the
 *   responder hands a model (respond(), called as the chat route calls it: the quoted passage, then
 *   retrieval's passages within the model's budget); "in retrieval's 20": a gold answer is in one of
 *   the passages retrieval returns for the question (retrieve, called as the responder calls it),
 *   and how often the first of them holds it, or one of the first three;
 * - unanswerable questions: the fallback was given (abstained);
 * - follow-ups: each answerable question that points back ("When did these rebellions take
 *   place?") asked again in a conversation, right after the question written before it on its
 *   paragraph, against the same question asked alone;
 * - chat latency over all questions, asked 4 at a time;
 * - per article: contains, median words and first source (with the floor's), to show how much the
 *   figures move from one article to another, as they will on a held-out set of other articles;
 * - a floor on the same answerable questions: Okapi BM25 over the paragraphs of the ten articles,
 *   answered with the sentence of the top paragraph sharing the most question words, and whether
 *   its top 3 paragraphs hold a gold answer; it says what
 *   the pipeline's extraction, ranking and answer add over a plain paragraph search.
 *
 *   npx tsx bench/answers-squad.ts
 *   FIXTURES_DIR=../shared/fixtures    where the shared fixtures are (the default; skipped when absent)
 *   BENCH_LIMIT=n                      ask only the first n questions of each article (quick runs)
 *   BENCH_VERBOSE=1                    print half A's misses: question, gold, answer, first source
 *   BENCH_SITE_PORT, BENCH_API_PORT    ports of the page server and the API (any free port by default)
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { QUALITY_CHECK_DEFAULTS } from "@contract";
import { pointsBack } from "../api/chat/follow-up";
import { respond } from "../api/chat/responder";
import { retrieve, type FirstStage } from "../api/knowledge/index/search";
import { sentencesOf } from "../api/knowledge/words/sentences";
import {
  askChat,
  benchPages,
  HTML,
  indexPages,
  inPool,
  median,
  servePages,
  share,
  startBenchApi,
  wordCount,
  type Asked,
} from "./answer-pages";
import { firstStageSummary, percentiles } from "./support";

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");
const DATASET = path.join(FIXTURES, "qa-dev", "squad2-dev-10-articles.json");
const LIMIT = Number(process.env.BENCH_LIMIT ?? 0) || Infinity;
const VERBOSE = process.env.BENCH_VERBOSE === "1";
/** Questions in flight at once: a few visitors at a time, as the widget is used. */
const CONCURRENCY = 4;
/** What the responder asks retrieval for (api/chat/responder.ts). */
const RESPONDER_LIMIT = 20;

if (!existsSync(DATASET) || !existsSync(path.join(FIXTURES, "real-pages"))) {
  console.log(`answers-squad: skipped, no SQuAD development set or shared pages under ${FIXTURES} (set FIXTURES_DIR)`);
  process.exit(0);
}

interface SquadFile {
  data: {
    title: string;
    paragraphs: { context: string; qas: { question: string; is_impossible: boolean; answers: { text: string }[] }[] }[];
  }[];
}
interface Question {
  previous: string | null;
  article: number;
  half: "A" | "B";
  question: string;
  golds: string[];
  answerable: boolean;
}

const articles = (JSON.parse(readFileSync(DATASET, "utf8")) as SquadFile).data;
const titleOf = (article: SquadFile["data"][number]) => article.title.replace(/_/g, " ");
const questions: Question[] = articles.flatMap((article, index) =>
  article.paragraphs
    .flatMap((paragraph) =>
      paragraph.qas.map((qa, at) => ({ ...qa, previous: at ? paragraph.qas[at - 1].question : null })),
    )
    .slice(0, LIMIT)
    .map((qa) => ({
      previous: qa.previous,
      article: index,
      // A fixed rule naming no article: even positions tune, odd ones confirm.
      half: index % 2 === 0 ? ("A" as const) : ("B" as const),
      question: qa.question,
      golds: [...new Set(qa.answers.map((a) => a.text))],
      answerable: !qa.is_impossible,
    })),
);

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const articlePage = (index: number) => `squad/${articles[index].title}.html`;
const pages = benchPages(FIXTURES);
articles.forEach((article, index) => {
  const title = escapeHtml(titleOf(article));
  const body = article.paragraphs.map((p) => `<p>${escapeHtml(p.context)}</p>`).join("\n");
  pages.set(articlePage(index), {
    type: HTML,
    body: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n<h1>${title}</h1>\n${body}\n</body></html>\n`,
  });
});

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
/** Whole words only: a gold "10" is not in "100". */
const holdsGold = (text: string, golds: string[]) => {
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

const K1 = 1.2;
const B = 0.75;
const paragraphs = articles.flatMap((article, index) =>
  article.paragraphs.map((p) => {
    const terms = termsOf(p.context);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    return { article: index, text: p.context, counts, length: terms.length };
  }),
);
const documentFrequency = new Map<string, number>();
for (const p of paragraphs)
  for (const term of p.counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
const averageLength = paragraphs.reduce((sum, p) => sum + p.length, 0) / paragraphs.length;
/** Lucene's idf, which stays positive for words in more than half the paragraphs. */
const idf = (term: string) => {
  const df = documentFrequency.get(term) ?? 0;
  return Math.log(1 + (paragraphs.length - df + 0.5) / (df + 0.5));
};

function floorAnswer(question: string) {
  const asked = [...new Set(termsOf(question))];
  const ranked = paragraphs
    .map((p) => {
      let score = 0;
      for (const term of asked) {
        const tf = p.counts.get(term) ?? 0;
        if (tf) score += (idf(term) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * p.length) / averageLength));
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
  // The top paragraphs, as many as the responder hands a model by default (Maximum Sources Per Answer).
  return {
    text: sentence,
    article: best.article,
    top: ranked.slice(0, QUALITY_CHECK_DEFAULTS.max_sources).map((r) => r.p.text),
  };
}

// ---- The run.

const site = await servePages(pages);
const bench = await startBenchApi("answers-squad");
const { host, apiBase } = bench;

interface Result {
  item: Question;
  answer: Asked;
  holds: boolean;
  rightSource: boolean;
  inContext: boolean;
  handed: boolean;
  topRight: boolean;
  goldRank: number;
  firstStage?: FirstStage;
  floor: { holds: boolean; words: number; rightSource: boolean; handed: boolean };
}

try {
  const started = performance.now();
  const index = await indexPages(host, site.base, [...pages.keys()].map(site.pageUrl), "SQuAD answer bench");
  console.log(
    `indexed ${index.pageCount - index.failed.length} of ${index.pageCount} pages through the pipeline in ${index.seconds.toFixed(1)} s; ${index.chunkCount} chunks`,
  );
  for (const page of index.failed)
    console.log(`  not indexed: ${page.url.replace(site.base, "")} (${page.metadata.error_message ?? page.status})`);
  const unreadable = [...pages.keys()].filter((page) => !index.readable.has(site.pageUrl(page)));
  if (unreadable.length) console.log(`  indexed without text: ${unreadable.join(", ")}`);

  for (const item of questions.slice(0, 5)) await askChat(apiBase, index.key, item.question); // warm-up

  let done = 0;
  const results = await inPool(questions, CONCURRENCY, async (item): Promise<Result> => {
    const answer = await askChat(apiBase, index.key, item.question);
    const articleUrl = site.pageUrl(articlePage(item.article));
    let inContext = false;
    let handed = false;
    let topRight = false;
    let goldRank = -1;
    let firstStage: FirstStage | undefined;
    if (item.answerable) {
      // As api/chat/responder.ts calls it: the widget sends no trigger point, so the default one.
      const retrieved = await retrieve(
        { appId: index.appId, query: item.question, triggerPoint: "", limit: RESPONDER_LIMIT },
        host.deps,
      );
      const { hits } = retrieved;
      firstStage = retrieved.firstStage;
      goldRank = hits.findIndex((hit) => holdsGold(hit.text, item.golds));
      inContext = goldRank !== -1;
      topRight = hits[0]?.url === articleUrl;
      // What a model reads: the responder's own context for the question.
      const responded = await respond(
        { appId: index.appId, environment: "stage", triggerPoint: "", message: item.question },
        host.deps,
      );
      handed = responded.context.some((passage) => holdsGold(passage.text, item.golds));
    }
    const floor = floorAnswer(item.question);
    if (++done % 500 === 0) console.error(`  ${done} of ${questions.length} asked`);
    return {
      item,
      answer,
      holds: holdsGold(answer.text, item.golds),
      rightSource: answer.sources[0]?.url === articleUrl,
      inContext,
      handed,
      topRight,
      goldRank,
      firstStage,
      floor: {
        holds: holdsGold(floor.text, item.golds),
        words: wordCount(floor.text),
        rightSource: floor.article === item.article,
        handed: floor.top.some((text) => holdsGold(text, item.golds)),
      },
    };
  });
  // Follow-ups ("When did these rebellions take place?"): each answerable question that points back
  // is asked again in a conversation, right after the question written before it on its paragraph.
  const followUps = questions.filter((q) => q.answerable && q.previous && pointsBack(q.question));
  const inConversation = new Map(
    await inPool(followUps, CONCURRENCY, async (item) => {
      const before = await askChat(apiBase, index.key, item.previous!);
      return [item, await askChat(apiBase, index.key, item.question, before.conversationId)] as const;
    }),
  );
  const errors = results.filter((r) => r.answer.outcome === "error").length;

  console.log(
    `\nSQuAD 2.0 development set, ${articles.length} articles (A: even positions, B: odd), ${questions.length} questions${LIMIT < Infinity ? ` (first ${LIMIT} of each article)` : ""}, asked ${CONCURRENCY} at a time over ${index.chunkCount} chunks (extractive, embedded PGlite)`,
  );
  if (errors) console.log(`  ${errors} questions got an error instead of an answer`);
  const halves: [string, Result[]][] = [
    ["A", results.filter((r) => r.item.half === "A")],
    ["B", results.filter((r) => r.item.half === "B")],
    ["all", results],
  ];
  for (const [name, rs] of halves) {
    const answerable = rs.filter((r) => r.item.answerable);
    const unanswerable = rs.filter((r) => !r.item.answerable);
    const count = (list: Result[], test: (r: Result) => boolean) => list.filter(test).length;
    const words = answerable.filter((r) => r.answer.outcome !== "fallback").map((r) => wordCount(r.answer.text));
    const { p50, p95 } = percentiles(rs.map((r) => r.answer.ms));
    console.log(
      `half ${name.padEnd(3)} answerable ${answerable.length}: contains ${share(
        count(answerable, (r) => r.holds),
        answerable.length,
      )}  median ${median(words)} words  ` +
        `first source ${share(
          count(answerable, (r) => r.rightSource),
          answerable.length,
        )}  top passage ${share(
          count(answerable, (r) => r.topRight),
          answerable.length,
        )}  ` +
        `passage handed to a model ${share(
          count(answerable, (r) => r.handed),
          answerable.length,
        )}  in retrieval's ${RESPONDER_LIMIT} ${share(
          count(answerable, (r) => r.inContext),
          answerable.length,
        )} ` +
        `(first ${share(
          count(answerable, (r) => r.goldRank === 0),
          answerable.length,
        )}, top 3 ${share(
          count(answerable, (r) => r.goldRank >= 0 && r.goldRank < 3),
          answerable.length,
        )})  ` +
        `fallback ${share(
          count(answerable, (r) => r.answer.outcome === "fallback"),
          answerable.length,
        )} | unanswerable ${unanswerable.length}: ` +
        `abstained ${share(
          count(unanswerable, (r) => r.answer.outcome === "fallback"),
          unanswerable.length,
        )} | p50 ${p50} ms p95 ${p95} ms`,
    );
  }
  console.log(firstStageSummary(results.map((r) => r.firstStage)));
  for (const [name, rs] of halves) {
    const asked = rs.filter((r) => inConversation.has(r.item));
    const followed = asked.map((r) => inConversation.get(r.item)!);
    const articleOf = (r: Result) => site.pageUrl(articlePage(r.item.article));
    console.log(
      `follow-ups ${name.padEnd(3)} ${asked.length} pointing back: contains ${share(asked.filter((r) => r.holds).length, asked.length)} asked alone, ` +
        `${share(asked.filter((r, i) => holdsGold(followed[i].text, r.item.golds)).length, asked.length)} after their previous question; ` +
        `first source ${share(asked.filter((r) => r.rightSource).length, asked.length)} → ${share(asked.filter((r, i) => followed[i].sources[0]?.url === articleOf(r)).length, asked.length)}`,
    );
  }
  for (const [name, rs] of halves) {
    const answerable = rs.filter((r) => r.item.answerable);
    console.log(
      `floor ${name.padEnd(3)} (BM25 paragraphs, best sentence): contains ${share(answerable.filter((r) => r.floor.holds).length, answerable.length)}  ` +
        `median ${median(answerable.map((r) => r.floor.words))} words  first source ${share(answerable.filter((r) => r.floor.rightSource).length, answerable.length)}  ` +
        `answer in its top ${QUALITY_CHECK_DEFAULTS.max_sources} paragraphs ${share(answerable.filter((r) => r.floor.handed).length, answerable.length)}`,
    );
  }
  console.log(
    `(floor: Okapi BM25 k1=${K1} b=${B}, one document per paragraph of the ${articles.length} articles, lower-cased words, English stop words removed, plural-only S-stemmer)`,
  );
  // How far the figures move from one article to the next: what a held-out set of other articles may see.
  console.log("per article (answerable questions):");
  for (const [index, article] of articles.entries()) {
    const answerable = results.filter((r) => r.item.article === index && r.item.answerable);
    const words = answerable.filter((r) => r.answer.outcome !== "fallback").map((r) => wordCount(r.answer.text));
    console.log(
      `  ${index % 2 ? "B" : "A"} ${titleOf(article).padEnd(28)} ${String(answerable.length).padStart(4)}: contains ${share(answerable.filter((r) => r.holds).length, answerable.length)}` +
        `  median ${median(words)} words  first source ${share(answerable.filter((r) => r.rightSource).length, answerable.length)}` +
        `  floor's first source ${share(answerable.filter((r) => r.floor.rightSource).length, answerable.length)}`,
    );
  }
  console.log(`run took ${((performance.now() - started) / 1000).toFixed(0)} s`);

  if (VERBOSE) {
    // Half A only: B's misses stay unseen so that B can confirm what A tuned.
    for (const r of halves[0][1]) {
      const missed = r.item.answerable ? !r.holds || !r.rightSource : r.answer.outcome !== "fallback";
      if (!missed) continue;
      // "floor✓src": the floor's paragraph search found the article where the chat did not; "gold@2":
      // the first passage of the context holding a gold answer is the second.
      const marks = r.item.answerable
        ? `${r.holds ? "  " : "✗ "}${r.rightSource ? "    " : "✗src "}${r.inContext ? `gold@${r.goldRank + 1} ` : "✗ctx "}${!r.rightSource && r.floor.rightSource ? "floor✓src " : ""}`
        : "✗answered-unanswerable ";
      console.log(
        `\n${marks}${r.item.question}  [${r.item.answerable ? r.item.golds.join(" | ") : "no answer"}; ${titleOf(articles[r.item.article])}]`,
      );
      console.log(`    ${r.answer.text.replace(/\s+/g, " ")}`);
      console.log(`    first source: ${r.answer.sources[0]?.url.replace(site.base, "") ?? "none"}`);
    }
  }
} finally {
  await bench.close();
  site.close();
}
